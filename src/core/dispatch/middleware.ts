import type { CallMetrics } from '../metrics/call-metrics.js';
import type { PauseGate } from '../util/pause-gate.js';
import { toErrorEnvelope } from '../../shared/errors.js';
import type { Middleware } from './dispatcher.js';

/** Calls that ingest (the contract's `ingests`) wait while indexing is paused, and count as in flight. */
export function pauseMiddleware(gate: PauseGate): Middleware {
  return (call, next) => (call.spec.ingests ? gate.run(next) : next());
}

/** Calls, errors by code and latency per operation, whatever door they came through. */
export function metricsMiddleware(metrics: CallMetrics): Middleware {
  return async (call, next) => {
    const started = performance.now();
    let code: string | null = null;
    try {
      return await next();
    } catch (err) {
      code = toErrorEnvelope(err).code;
      throw err;
    } finally {
      metrics.observe(call.method, (performance.now() - started) / 1000, code);
    }
  };
}

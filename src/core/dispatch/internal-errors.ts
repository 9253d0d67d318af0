import { randomBytes } from 'node:crypto';
import { RagError, toErrorEnvelope, type ErrorEnvelope } from '../../shared/errors.js';
import type { Middleware } from './dispatcher.js';

/** What is logged of an internal error; callers get only its `ref`. */
export interface InternalErrorEntry {
  ref: string;
  method: string;
  message: string;
  stack?: string;
}

export type InternalErrorLog = (entry: InternalErrorEntry) => void;

/** Default log: one line on stderr (never stdout: `ragdesk mcp` speaks the protocol there). */
export const stderrInternalLog: InternalErrorLog = (e) => {
  process.stderr.write(`ragdesk: internal error ${e.ref} in ${e.method}: ${e.message}\n${e.stack ? `${e.stack}\n` : ''}`);
};

/** A log that takes the entry as a structured error record (pino's `error`): the server's, the app's, `ragdesk mcp`'s. */
export function loggerInternalLog(logger: { error(obj: object, msg: string): void }): InternalErrorLog {
  return (e) => logger.error({ ref: e.ref, method: e.method, err: e.stack ?? e.message }, `internal error: ${e.message}`);
}

const MAX_DEPTH = 6;
const CONCEALED = /^internal error \(ref [0-9a-f]+\)/;

/** Log an internal error's detail under a fresh reference; what the caller may read instead. */
function logWithRef(log: InternalErrorLog, method: string, message: string, stack?: string): { message: string; ref: string } {
  const ref = randomBytes(4).toString('hex');
  try {
    log({ ref, method, message, ...(stack ? { stack } : {}) });
  } catch {
    // A failing log never turns into a second error.
  }
  return { ref, message: `internal error (ref ${ref}); the details are in ragdesk's log` };
}

/**
 * Any failure as a caller may see it, for code outside the dispatcher (an MCP tool's own code, the HTTP server's
 * last resort, the desktop's operations): an internal error is logged with its detail and answered with a
 * reference only; other codes, and internal errors already answered that way, pass as they are.
 */
export function concealInternal(err: unknown, method: string, log: InternalErrorLog): ErrorEnvelope {
  const env = toErrorEnvelope(err);
  if (env.code !== 'internal' || typeof env.details?.ref === 'string' || CONCEALED.test(env.message)) return env;
  const { ref, message } = logWithRef(log, method, env.message, stackOf(err));
  return { code: 'internal', message, details: { ref } };
}

function stackOf(err: unknown): string | undefined {
  const parts: string[] = [];
  let e: unknown = err;
  for (let i = 0; i < 3 && e instanceof Error; i++, e = e.cause) if (e.stack) parts.push(e.stack);
  return parts.length ? parts.join('\ncaused by: ') : undefined;
}

/**
 * Internal errors never reach callers as they are: their messages carry file paths, store internals and stack
 * fragments. Each one is logged with a short reference, and the caller gets `internal` with that reference only,
 * whether it was thrown or reported inside a result (a batch item's `error`, a job's outcome).
 */
export function internalErrorMiddleware(log: () => InternalErrorLog): Middleware {
  return async (call, next) => {
    let out: unknown;
    try {
      out = await next();
    } catch (err) {
      const env = concealInternal(err, call.method, log());
      if (env.code !== 'internal' || (err instanceof RagError && err.details?.ref === env.details?.ref)) throw err;
      throw new RagError('internal', env.message, { details: env.details ?? {} });
    }
    return scrub(out, 0, (message) => logWithRef(log(), call.method, message));
  };
}

/** Replace `{code: 'internal', message}` envelopes inside a result (copy on write). */
function scrub(value: unknown, depth: number, conceal: (message: string) => { message: string; ref: string }): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((v, i) => {
      const s = scrub(v, depth + 1, conceal);
      if (s !== v) (copy ??= [...value])[i] = s;
    });
    return copy ?? value;
  }
  const o = value as Record<string, unknown>;
  if (o.code === 'internal' && typeof o.message === 'string' && !CONCEALED.test(o.message)) {
    const { message, ref } = conceal(o.message);
    return { code: 'internal', message, details: { ref } };
  }
  let copy: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(o)) {
    const s = scrub(v, depth + 1, conceal);
    if (s !== v) (copy ??= { ...o })[k] = s;
  }
  return copy ?? o;
}

import type { ModelStatus } from '../../../shared/contract/index.js';
import { RagError } from '../../../shared/errors.js';
import type { Embedder, ModelProgressEvent } from '../types.js';
import { BreakerRegistry, type BreakerState, type CircuitBreaker } from './circuit-breaker.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './http-client.js';
import { OllamaEmbedder } from './ollama-embedder.js';
import { OpenAiEmbedder } from './openai-embedder.js';
import { makeRedactor, redactedLog, stderrLog, type Redactor, type RemoteLog } from './redact.js';
import type { RemoteEmbedder } from './remote-embedder.js';
import { parseRemoteSpec, type RemoteSpec } from './remote-spec.js';

/** Defaults for every remote embedder of a manager; a model string's own options win. */
export interface RemoteModelsOptions extends Partial<RetryPolicy> {
  /** Query embeddings (a search waits on them) use at most this timeout (default 10 s) … */
  queryTimeoutMs?: number;
  /** … and at most this many retries (default 1). */
  queryRetries?: number;
  /** Texts per request (default 32 for Ollama, 64 for OpenAI-compatible endpoints). */
  batchSize?: number;
  /** Consecutive failed attempts that open an endpoint's circuit (default 5). */
  failureThreshold?: number;
  /** How long an open circuit fails fast before one probe request (default 30 s). */
  cooldownMs?: number;
  /** A background probe (peekEmbedder) does not retry a failed model sooner than this (default 5 s). */
  backgroundRetryMs?: number;
  /** Where API keys are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Log sink; every line is redacted before it gets here. Default: warnings to stderr. */
  log?: RemoteLog;
}

const DEFAULT_BATCH = { ollama: 32, openai: 64 } as const;
const DEFAULT_BACKGROUND_RETRY_MS = 5_000;
const DEFAULT_QUERY_TIMEOUT_MS = 10_000;
const DEFAULT_QUERY_RETRIES = 1;

interface Entry {
  spec: RemoteSpec;
  embedder: RemoteEmbedder;
  breaker: CircuitBreaker;
  status: ModelStatus;
  probing?: Promise<void>;
  lastFailureAt?: number;
}

/**
 * The remote half of the ModelManager: Ollama and OpenAI-compatible embedders named by `ollama:` / `openai:`
 * model strings. "Loading" one is a probe request that proves the endpoint and learns the dimension; after
 * that every call's outcome keeps the status current (loaded, or error/missing with the redacted reason).
 */
export class RemoteModels {
  private readonly entries = new Map<string, Entry>();
  private readonly breakers: BreakerRegistry;
  private readonly abort = new AbortController();
  private readonly secrets = new Set<string>();
  private readonly redact: Redactor = (text) => makeRedactor([...this.secrets])(text);
  private readonly log: RemoteLog;
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    private readonly options: RemoteModelsOptions,
    private readonly emit: (event: ModelProgressEvent) => void,
  ) {
    this.env = options.env ?? process.env;
    this.log = redactedLog(options.log ?? stderrLog, this.redact);
    this.breakers = new BreakerRegistry({
      ...(options.failureThreshold !== undefined ? { failureThreshold: options.failureThreshold } : {}),
      ...(options.cooldownMs !== undefined ? { cooldownMs: options.cooldownMs } : {}),
      onChange: (state, breaker) => this.onBreaker(state, breaker),
    });
  }

  status(): ModelStatus[] {
    return [...this.entries.values()].map((e) => ({ ...e.status }));
  }

  /** The embedder once a request has worked; probes the endpoint when none has yet (or the last one failed). */
  async getEmbedder(model: string): Promise<Embedder> {
    const entry = this.entryFor(model);
    if (entry.status.state === 'loaded' && !entry.breaker.rejecting) return entry.embedder;
    await this.probe(entry);
    return entry.embedder;
  }

  /** The embedder if its endpoint is known to work and its circuit is not open; else starts a background probe. */
  peekEmbedder(model: string): Embedder | undefined {
    const entry = this.entryFor(model);
    if (entry.status.state === 'loaded' && !entry.breaker.rejecting) return entry.embedder;
    const recent =
      entry.lastFailureAt !== undefined &&
      Date.now() - entry.lastFailureAt < (this.options.backgroundRetryMs ?? DEFAULT_BACKGROUND_RETRY_MS);
    if (!entry.probing && !recent && !entry.breaker.rejecting) this.probe(entry).catch(() => undefined); // the outcome is in status()
    return undefined;
  }

  /** Abort requests in flight and backoff waits. */
  dispose(): void {
    this.abort.abort();
  }

  private entryFor(model: string): Entry {
    if (this.abort.signal.aborted) throw new RagError('model_unavailable', 'the model manager has been disposed');
    const key = model.trim();
    const known = this.entries.get(key);
    if (known) return known;
    const spec = parseRemoteSpec(key); // invalid_parameter on bad syntax
    const breaker = this.breakers.for(spec.endpoint);
    const secret = spec.keyEnv ? this.env[spec.keyEnv] : undefined;
    if (secret) this.secrets.add(secret);
    const policy: RetryPolicy = {
      ...DEFAULT_RETRY_POLICY,
      ...definedOnly({
        timeoutMs: this.options.timeoutMs,
        retries: this.options.retries,
        baseDelayMs: this.options.baseDelayMs,
        maxDelayMs: this.options.maxDelayMs,
        maxRetryAfterMs: this.options.maxRetryAfterMs,
      }),
      ...definedOnly({ timeoutMs: spec.timeoutMs, retries: spec.retries }),
    };
    const queryPolicy: RetryPolicy = {
      ...policy,
      timeoutMs: Math.min(policy.timeoutMs, this.options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS),
      retries: Math.min(policy.retries, this.options.queryRetries ?? DEFAULT_QUERY_RETRIES),
    };
    const deps = {
      policy,
      queryPolicy,
      batchSize: spec.batchSize ?? this.options.batchSize ?? DEFAULT_BATCH[spec.provider],
      breaker,
      env: this.env,
      log: this.log,
      signal: this.abort.signal,
      onOutcome: (error?: RagError) => this.onOutcome(entry, error),
    };
    const embedder = spec.provider === 'ollama' ? new OllamaEmbedder(spec, deps, this.redact) : new OpenAiEmbedder(spec, deps, this.redact);
    const entry: Entry = { spec, breaker, embedder, status: { model, resolved: spec.resolved, kind: 'embedding', state: 'missing' } };
    this.entries.set(key, entry);
    return entry;
  }

  private probe(entry: Entry): Promise<void> {
    if (entry.probing) return entry.probing;
    if (entry.status.state !== 'loaded') this.setStatus(entry, { state: 'loading' });
    const run = entry.embedder.probe().then(() => undefined);
    entry.probing = run;
    const clear = () => {
      if (entry.probing === run) entry.probing = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  private onOutcome(entry: Entry, error?: RagError): void {
    if (!error) {
      entry.lastFailureAt = undefined;
      if (entry.status.state !== 'loaded' || entry.status.dim !== entry.embedder.dim) this.setStatus(entry, { state: 'loaded' });
      return;
    }
    if (error.code !== 'model_unavailable') return; // the endpoint works; it refused this input
    entry.lastFailureAt = Date.now();
    const state = error.details?.state === 'missing' ? 'missing' : 'error';
    // The failure that just opened the circuit: say so, since the next calls will not even be tried.
    const opened = entry.breaker.state === 'open' && error.details?.circuit !== 'open';
    const message = opened ? `${error.message}; ${circuitNote(entry.breaker)}` : error.message;
    if (entry.status.state !== state || entry.status.error !== message) {
      this.setStatus(entry, { state, error: this.redact(message) });
      this.log('warn', `embedding model ${entry.spec.resolved}: ${message}`);
    }
  }

  private onBreaker(state: BreakerState, breaker: CircuitBreaker): void {
    if (state === 'open') {
      const secs = Math.ceil(breaker.retryInMs / 1000);
      const why = `${breaker.failureCount} consecutive failures, last: ${breaker.lastFailure}`;
      this.log('warn', `endpoint ${breaker.endpoint} is failing (${why}); failing fast for ${secs} s`);
      for (const entry of this.entries.values()) {
        if (entry.breaker !== breaker) continue;
        entry.lastFailureAt = Date.now();
        this.setStatus(entry, { state: 'error', error: this.redact(`${breaker.lastFailure}; ${circuitNote(breaker)}`) });
      }
    } else if (state === 'closed') {
      this.log('info', `endpoint ${breaker.endpoint} answers again; circuit closed`);
      // The half-open probe succeeded: its models are usable again, and listeners (the backfill of chunks
      // stored without vectors, services/heal.ts) hear it now.
      for (const entry of this.entries.values()) {
        if (entry.breaker !== breaker) continue;
        entry.lastFailureAt = undefined;
        if (entry.embedder.dim > 0) this.setStatus(entry, { state: 'loaded' });
      }
    } else {
      this.log('debug', `endpoint ${breaker.endpoint}: cool-down over, sending one probe request`);
    }
  }

  private setStatus(entry: Entry, patch: Pick<ModelStatus, 'state'> & Partial<ModelStatus>): void {
    const { model, resolved, kind } = entry.status;
    const dim = entry.embedder.dim;
    entry.status = { model, resolved, kind, ...(dim > 0 ? { dim } : {}), ...patch };
    this.emit({ model, kind, state: entry.status.state });
  }
}

function circuitNote(breaker: CircuitBreaker): string {
  return `circuit open after ${breaker.failureCount} consecutive failures: requests fail fast for ${Math.ceil(breaker.retryInMs / 1000)} s, then one probe is sent`;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

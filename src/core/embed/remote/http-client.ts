import { RagError } from '../../../shared/errors.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import type { Redactor, RemoteLog } from './redact.js';

export interface RetryPolicy {
  /** Per attempt, from sending the request to the end of the response body (AbortController). */
  timeoutMs: number;
  /** Attempts after the first one, for network errors, timeouts, 5xx and 429. */
  retries: number;
  /** Backoff before retry n (0-based) is baseDelayMs·2ⁿ, capped at maxDelayMs, with ±50 % jitter below it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails with the server's wait in the message. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  timeoutMs: 60_000,
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export interface PostJsonRequest {
  url: string;
  body: unknown;
  headers?: Record<string, string>;
  policy: RetryPolicy;
  breaker: CircuitBreaker;
  redact: Redactor;
  log: RemoteLog;
  /** Names the call in messages, e.g. `ollama model "nomic-embed-text" at http://127.0.0.1:11434/api/embed`. */
  label: string;
  /** Appended to 401/403 messages (e.g. which environment variable holds the key). */
  authHint?: string;
  /** Aborts waiting and the request in flight (manager disposed). */
  signal?: AbortSignal;
}

/** What went wrong in one attempt, and whether another attempt may help. */
interface AttemptFailure {
  message: string;
  retryable: boolean;
  /** Counts against the endpoint's circuit breaker (network error, timeout, 5xx). */
  breaker: boolean;
  status?: number;
  /** The server's own words, when it answered. */
  server?: string;
  retryAfterMs?: number;
}

const BODY_SNIPPET = 300;

/** Seconds or an HTTP date → milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with jitter: a random delay in [d/2, d], d = min(max, base·2^attempt). */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random = Math.random): number {
  const d = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(d / 2 + random() * (d / 2));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new RagError('model_unavailable', 'the model manager has been disposed'));
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort(): void {
      clearTimeout(timer);
      reject(new RagError('model_unavailable', 'the model manager has been disposed'));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The server's own words from an error body: OpenAI `{error: {message}}`, Ollama `{error: "…"}`, or the text. */
export function serverMessage(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const e = json.error;
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') return (e as { message: string }).message;
    if (typeof json.message === 'string') return json.message;
    if (typeof json.detail === 'string') return json.detail;
  } catch {
    // not JSON
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > BODY_SNIPPET ? `${flat.slice(0, BODY_SNIPPET)}…` : flat;
}

function networkMessage(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const detail = typeof cause?.message === 'string' ? cause.message : err instanceof Error ? err.message : String(err);
  return code && !detail.includes(code) ? `${code}: ${detail}` : detail;
}

async function attempt(req: PostJsonRequest): Promise<{ ok: true; json: unknown } | { ok: false; failure: AttemptFailure }> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.policy.timeoutMs);
  const onAbort = () => controller.abort();
  req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await fetch(req.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...req.headers },
      body: JSON.stringify(req.body),
      signal: controller.signal,
    });
    const text = await res.text();
    if (res.ok) {
      try {
        return { ok: true, json: JSON.parse(text) as unknown };
      } catch {
        return {
          ok: false,
          failure: {
            message: `HTTP ${res.status} with a body that is not JSON: ${serverMessage(text)}`,
            retryable: false,
            breaker: false,
            status: res.status,
          },
        };
      }
    }
    const status = res.status;
    const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
    const server = serverMessage(text);
    const message = `HTTP ${status}${res.statusText ? ` ${res.statusText}` : ''}: ${server || '(empty body)'}`;
    const wait = retryAfterMs !== undefined ? { retryAfterMs } : {};
    if (status === 429) return { ok: false, failure: { message, retryable: true, breaker: false, status, server, ...wait } };
    if (status >= 500 || status === 408)
      return { ok: false, failure: { message, retryable: true, breaker: true, status, server, ...wait } };
    return { ok: false, failure: { message, retryable: false, breaker: false, status, server } };
  } catch (err) {
    if (req.signal?.aborted) throw new RagError('model_unavailable', 'the model manager has been disposed');
    const message = timedOut
      ? `no answer within ${req.policy.timeoutMs} ms (timed out)`
      : `cannot reach the endpoint (${networkMessage(err)})`;
    return { ok: false, failure: { message, retryable: true, breaker: true } };
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
  }
}

/** The final error for a failure that is not retried (or retried out). Every message is redacted. */
function finalError(req: PostJsonRequest, f: AttemptFailure, attempts: number): RagError {
  const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  const details: Record<string, unknown> = {
    endpoint: req.url,
    ...(f.status !== undefined ? { status: f.status } : {}),
    ...(f.server !== undefined ? { server_message: req.redact(f.server) } : {}),
  };
  const s = f.status;
  if (s === 401 || s === 403) {
    return new RagError(
      'model_unavailable',
      req.redact(`${req.label} refused the request: ${f.message}${req.authHint ? `; ${req.authHint}` : ''}`),
      {
        details: { ...details, state: 'error' },
      },
    );
  }
  if (s === 400 || s === 413 || s === 422) {
    return new RagError('invalid_parameter', req.redact(`${req.label} rejected the input: ${f.message}`), { details });
  }
  if (s === 404)
    return new RagError('model_unavailable', req.redact(`${req.label} was not found: ${f.message}`), {
      details: { ...details, state: 'missing' },
    });
  return new RagError('model_unavailable', req.redact(`${req.label} failed: ${f.message}${tries}`), {
    details: { ...details, state: 'error' },
  });
}

/**
 * POST a JSON body and return the parsed JSON answer, with a timeout per attempt, retries with exponential
 * backoff and jitter (honouring Retry-After) on network errors, timeouts, 5xx and 429, and the endpoint's
 * circuit breaker consulted before every attempt. Failures are RagErrors whose messages are redacted.
 */
export async function postJson(req: PostJsonRequest): Promise<unknown> {
  const maxAttempts = req.policy.retries + 1;
  for (let n = 0; ; n++) {
    req.breaker.acquire(req.label); // throws model_unavailable while the circuit is open
    let outcome: Awaited<ReturnType<typeof attempt>>;
    try {
      outcome = await attempt(req);
    } catch (err) {
      req.breaker.neutral();
      throw err;
    }
    if (outcome.ok) {
      req.breaker.success();
      return outcome.json;
    }
    const f = outcome.failure;
    if (f.breaker) req.breaker.failure(req.redact(f.message));
    else if (f.status === 429) req.breaker.neutral();
    else req.breaker.success(); // the endpoint answered: it is up, whatever it thought of the request
    if (!f.retryable || n + 1 >= maxAttempts) throw finalError(req, f, n + 1);
    if (f.retryAfterMs !== undefined && f.retryAfterMs > req.policy.maxRetryAfterMs) {
      throw finalError(req, { ...f, message: `${f.message}; the server asks to retry after ${Math.ceil(f.retryAfterMs / 1000)} s` }, n + 1);
    }
    const delay = f.retryAfterMs ?? backoffDelay(n, req.policy);
    req.log('debug', req.redact(`${req.label}: ${f.message}; retry ${n + 1}/${req.policy.retries} in ${delay} ms`));
    await sleep(delay, req.signal);
  }
}

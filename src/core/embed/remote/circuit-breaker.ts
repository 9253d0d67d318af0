import { RagError } from '../../../shared/errors.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  /** Consecutive failed attempts that open the circuit (default 5). */
  failureThreshold?: number;
  /** How long an open circuit fails fast before one probe may go through (default 30 s). */
  cooldownMs?: number;
  now?: () => number;
  /** Called when the state changes (for logs and model status). */
  onChange?: (state: BreakerState, breaker: CircuitBreaker) => void;
}

export const DEFAULT_FAILURE_THRESHOLD = 5;
export const DEFAULT_COOLDOWN_MS = 30_000;

/**
 * A circuit breaker for one endpoint. Closed: requests go through; `failureThreshold` consecutive failures
 * (network errors, timeouts, 5xx) open it. Open: requests fail at once with RagError('model_unavailable')
 * without touching the network. After `cooldownMs` it is half-open: exactly one request (the probe) goes
 * through; success closes the circuit, failure opens it for another cool-down. Any HTTP answer that is not a
 * server error (even a 4xx) proves the endpoint is up and counts as success; 429 counts as neither.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | undefined;
  private probing = false;
  private lastError = '';
  private readonly threshold: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;

  constructor(
    readonly endpoint: string,
    private readonly options: BreakerOptions = {},
  ) {
    this.threshold = Math.max(1, options.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD);
    this.cooldownMs = Math.max(0, options.cooldownMs ?? DEFAULT_COOLDOWN_MS);
    this.now = options.now ?? Date.now;
  }

  get state(): BreakerState {
    if (this.openedAt === undefined) return 'closed';
    return this.now() - this.openedAt >= this.cooldownMs ? 'half-open' : 'open';
  }

  /** Consecutive failures so far. */
  get failureCount(): number {
    return this.failures;
  }

  /** Milliseconds until an open circuit lets a probe through (0 when it would now). */
  get retryInMs(): number {
    return this.openedAt === undefined ? 0 : Math.max(0, this.openedAt + this.cooldownMs - this.now());
  }

  /** True when a request would fail fast right now (open, or half-open with the probe already out). */
  get rejecting(): boolean {
    const state = this.state;
    return state === 'open' || (state === 'half-open' && this.probing);
  }

  /**
   * Ask to send one request. Throws RagError('model_unavailable') while open (or while the half-open probe is
   * out); otherwise the caller must report the outcome with success(), failure() or neutral().
   */
  acquire(label: string): void {
    const state = this.state;
    if (state === 'closed') return;
    if (state === 'half-open' && !this.probing) {
      this.probing = true;
      this.options.onChange?.('half-open', this);
      return;
    }
    const wait = state === 'open' ? `; next try in ${Math.ceil(this.retryInMs / 1000)} s` : '; a probe request is under way';
    throw new RagError(
      'model_unavailable',
      `${label} is unavailable: circuit open after ${this.failures} consecutive failures (last: ${this.lastError})${wait}`,
      {
        details: { state: 'error', circuit: 'open', endpoint: this.endpoint },
      },
    );
  }

  success(): void {
    const wasOpen = this.openedAt !== undefined;
    this.failures = 0;
    this.openedAt = undefined;
    this.probing = false;
    if (wasOpen) this.options.onChange?.('closed', this);
  }

  failure(message: string): void {
    this.failures++;
    this.lastError = message;
    if (this.probing) {
      this.probing = false;
      this.openedAt = this.now();
      this.options.onChange?.('open', this);
    } else if (this.openedAt === undefined && this.failures >= this.threshold) {
      this.openedAt = this.now();
      this.options.onChange?.('open', this);
    }
  }

  /** The endpoint answered but proved nothing (429): a probe slot is freed, counts are unchanged. */
  neutral(): void {
    this.probing = false;
  }

  /** The last failure's message (redacted by the caller). */
  get lastFailure(): string {
    return this.lastError;
  }
}

/** One breaker per endpoint URL, shared by every model that calls it. */
export class BreakerRegistry {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(private readonly options: BreakerOptions = {}) {}

  for(endpoint: string): CircuitBreaker {
    let breaker = this.breakers.get(endpoint);
    if (!breaker) {
      breaker = new CircuitBreaker(endpoint, this.options);
      this.breakers.set(endpoint, breaker);
    }
    return breaker;
  }
}

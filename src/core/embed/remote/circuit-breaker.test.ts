import { describe, expect, it } from 'vitest';
import { RagError } from '../../../shared/errors.js';
import { CircuitBreaker, type BreakerState } from './circuit-breaker.js';
import { backoffDelay, parseRetryAfter } from './http-client.js';

function clocked(threshold = 3, cooldownMs = 1000) {
  let t = 0;
  const changes: BreakerState[] = [];
  const breaker = new CircuitBreaker('http://x/api/embed', {
    failureThreshold: threshold,
    cooldownMs,
    now: () => t,
    onChange: (s) => changes.push(s),
  });
  return { breaker, changes, advance: (ms: number) => (t += ms) };
}

function rejected(fn: () => void): RagError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RagError);
    expect((err as RagError).code).toBe('model_unavailable');
    return err as RagError;
  }
  throw new Error('not rejected');
}

describe('CircuitBreaker', () => {
  it('opens after N consecutive failures; a success in between resets the count', () => {
    const { breaker, changes } = clocked(3);
    breaker.acquire('m');
    breaker.failure('e1');
    breaker.failure('e2');
    breaker.success();
    breaker.failure('e3');
    breaker.failure('e4');
    expect(breaker.state).toBe('closed');
    breaker.failure('boom');
    expect(breaker.state).toBe('open');
    expect(changes).toEqual(['open']);
    const err = rejected(() => breaker.acquire('model m'));
    expect(err.message).toMatch(/circuit open after 3 consecutive failures \(last: boom\); next try in 1 s/);
  });

  it('lets one probe through after the cool-down; success closes, failure re-opens', () => {
    const { breaker, changes, advance } = clocked(2, 1000);
    breaker.failure('a');
    breaker.failure('b');
    advance(999);
    rejected(() => breaker.acquire('m'));
    advance(1);
    expect(breaker.state).toBe('half-open');
    breaker.acquire('m'); // the probe
    expect(breaker.rejecting).toBe(true);
    rejected(() => breaker.acquire('m')); // only one probe at a time
    breaker.failure('still down');
    expect(breaker.state).toBe('open');
    advance(1000);
    breaker.acquire('m');
    breaker.success();
    expect(breaker.state).toBe('closed');
    breaker.acquire('m');
    expect(changes).toEqual(['open', 'half-open', 'open', 'half-open', 'closed']);
  });

  it('a neutral answer (429) frees the probe slot without closing', () => {
    const { breaker, advance } = clocked(1, 10);
    breaker.failure('x');
    advance(10);
    breaker.acquire('m');
    breaker.neutral();
    expect(breaker.state).toBe('half-open');
    breaker.acquire('m');
  });
});

describe('retry helpers', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(0, policy, () => 0)).toBe(50);
    expect(backoffDelay(0, policy, () => 1)).toBe(100);
    expect(backoffDelay(3, policy, () => 1)).toBe(800);
    expect(backoffDelay(10, policy, () => 1)).toBe(1000);
    expect(backoffDelay(10, policy, () => 0)).toBe(500);
  });
});

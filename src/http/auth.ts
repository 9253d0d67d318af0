import type { IncomingMessage } from 'node:http';
import { secretsEqual, type KeyStore } from '../core/auth/key-store.js';
import { OWNER, type Principal } from '../core/auth/scope.js';

/** The bearer token of a request, if it sent one. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1];
}

/**
 * Who sent a request: the owner (the lock file's token, readable only by this user) or an API key from
 * keys.json. Undefined means 401.
 */
export function authenticate(req: IncomingMessage, ownerToken: string, keys: KeyStore): Principal | undefined {
  const token = bearerToken(req);
  if (!token) return undefined;
  if (secretsEqual(token, ownerToken)) return OWNER;
  return keys.verify(token);
}

export function principalId(p: Principal): string {
  return p.kind === 'owner' ? 'owner' : p.id;
}

export interface RateLimit {
  /** Sustained requests per second per key. */
  perSecond: number;
  /** Requests a key may make at once after being idle. */
  burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 20, burst: 60 };

/** A token bucket per API key. The owner is not limited (it is this machine's own user). */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(readonly limit: RateLimit) {}

  /** 0 when the request may go ahead, else the seconds to wait (for Retry-After). */
  take(id: string, now = Date.now()): number {
    const b = this.buckets.get(id) ?? { tokens: this.limit.burst, at: now };
    b.tokens = Math.min(this.limit.burst, b.tokens + ((now - b.at) / 1000) * this.limit.perSecond);
    b.at = now;
    this.buckets.set(id, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.limit.perSecond));
  }
}

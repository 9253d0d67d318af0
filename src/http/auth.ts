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

/** Whether a socket's peer address is this machine (IPv4 127/8, IPv6 ::1, and IPv4-mapped 127/8). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a) || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/**
 * Who sent a request: the owner (the lock file's token, readable only by this user) or an API key from
 * keys.json. Undefined means 401. The owner's token counts only from this machine: a server bound beyond
 * loopback (`serve --host 0.0.0.0`, plain HTTP) may carry it through a network, so from any other address it is
 * refused like a wrong key. API keys work from anywhere the server listens.
 */
export function authenticate(req: IncomingMessage, ownerToken: string, keys: KeyStore): Principal | undefined {
  const token = bearerToken(req);
  if (!token) return undefined;
  if (secretsEqual(token, ownerToken)) return isLoopbackAddress(req.socket.remoteAddress) ? OWNER : undefined;
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

/** Requests one API key may have in progress at once (over /api and /mcp together); more get 429. */
export const DEFAULT_KEY_CONCURRENCY = 16;
/** Requests with a large body (uploads, batches) one API key may have in progress at once. */
export const DEFAULT_KEY_UPLOADS = 2;

/** Requests in progress per API key: a key at its limit gets 429 instead of tying up the server. */
export class InFlight {
  private readonly counts = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Count a request in; false (and nothing counted) when the key is at its limit. Call the returned release once. */
  enter(id: string): (() => void) | undefined {
    const n = this.counts.get(id) ?? 0;
    if (n >= this.limit) return undefined;
    this.counts.set(id, n + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.counts.get(id) ?? 1) - 1;
      if (left > 0) this.counts.set(id, left);
      else this.counts.delete(id);
    };
  }

  count(id: string): number {
    return this.counts.get(id) ?? 0;
  }
}

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

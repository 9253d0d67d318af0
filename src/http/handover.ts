import { liveLockOwner } from '../core/config/lock.js';
import { RagError } from '../shared/errors.js';
import { isLoopbackHost } from './security.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface TakeOverOptions {
  /** How long to wait for the other process to let go (default 15 s). */
  timeoutMs?: number;
  /** Told when a hand-over was asked for. */
  onAsk?: (owner: { pid: number; port: number }) => void;
}

/**
 * Open the data dir, asking its current owner to hand it over when that owner is a `ragdesk mcp` stdio process
 * (it serves a private /mcp port and agrees to become a bridge). A server (`ragdesk serve`, the desktop app)
 * refuses, and the original `busy` error stands. Used by `ragdesk serve` and the desktop app at start.
 */
export async function openTakingOver<T>(open: () => Promise<T>, lockPath: string, options: TakeOverOptions = {}): Promise<T> {
  try {
    return await open();
  } catch (err) {
    if (!(err instanceof RagError) || err.code !== 'busy') throw err;
    const owner = liveLockOwner(lockPath);
    if (!owner?.port) throw err;
    const host = isLoopbackHost(owner.host) ? owner.host : '127.0.0.1';
    const res = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${owner.port}/internal/handover`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner.token}` },
      signal: AbortSignal.timeout(5000),
    }).catch(() => undefined);
    if (res?.status !== 202) throw err;
    options.onAsk?.({ pid: owner.pid, port: owner.port });
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    let last: unknown = err;
    while (Date.now() < deadline) {
      await sleep(100);
      try {
        return await open();
      } catch (e) {
        if (!(e instanceof RagError) || e.code !== 'busy') throw e;
        last = e;
      }
    }
    throw last;
  }
}

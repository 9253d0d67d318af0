import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { RagError } from '../../shared/errors.js';
import { acquireExclusive, isPidAlive, readExclusive, removeIfUnchanged } from '../util/exclusive-file.js';
import { writeFileAtomic } from '../util/json-file.js';

export { isPidAlive } from '../util/exclusive-file.js';

/** The writer lock: the first process to open a data dir records its pid, HTTP port (if any) and access token. */
export interface LockInfo {
  pid: number;
  port: number | null;
  token: string;
  started_at: string;
  host: string;
}

function parseLock(text: string): LockInfo | undefined {
  try {
    const info = JSON.parse(text) as LockInfo;
    return info && typeof info.pid === 'number' && typeof info.token === 'string' ? info : undefined;
  } catch {
    return undefined;
  }
}

export function readLock(lockPath: string): LockInfo | undefined {
  try {
    return parseLock(fs.readFileSync(lockPath, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The live owner of the data dir, if another process holds it. */
export function liveLockOwner(lockPath: string): LockInfo | undefined {
  const info = readLock(lockPath);
  return info && info.pid !== process.pid && isPidAlive(info.pid) ? info : undefined;
}

/**
 * A lock whose process is gone. A lock that cannot be read is stale only once it is a few seconds old (a process of
 * an older ragdesk may be between creating and writing it); our own pid in it is a leftover from a process that had
 * the same pid before (this process has not taken it).
 */
const UNREADABLE_STALE_MS = 5_000;
function lockIsStale(text: string, ageMs: number): boolean {
  const info = parseLock(text);
  if (!info) return ageMs > UNREADABLE_STALE_MS;
  return info.pid === process.pid || !isPidAlive(info.pid);
}

export interface HeldLock {
  info: LockInfo;
  /** Record the HTTP port once the server listens, so `ragdesk mcp` can bridge to it. */
  setPort(port: number | null, host?: string): void;
  release(): void;
}

/**
 * Take the lock, or fail with `busy` naming the live owner's pid (and port). The lock file is created whole and
 * exclusively (see util/exclusive-file.ts); a stale one (dead pid) is taken over under a takeover lock, removing it
 * only if it is still the record that was judged stale, so two processes starting together never both win.
 */
export function acquireLock(lockPath: string): HeldLock {
  const info: LockInfo = {
    pid: process.pid,
    port: null,
    token: randomBytes(24).toString('base64url'),
    started_at: new Date().toISOString(),
    host: '127.0.0.1',
  };
  const outcome = acquireExclusive(lockPath, JSON.stringify(info), { isStale: lockIsStale, rounds: 400, waitMs: 5 });
  if (outcome.ok) return heldLock(lockPath, info);
  const owner = outcome.holder ? parseLock(outcome.holder) : undefined;
  if (owner) {
    throw new RagError(
      'busy',
      `the data dir is in use by another ragdesk process (pid ${owner.pid}${owner.port ? `, serving on port ${owner.port}` : ''})`,
      { details: { pid: owner.pid, port: owner.port } },
    );
  }
  throw new RagError('busy', `could not take the data dir lock ${lockPath}: another process is starting`);
}

function heldLock(lockPath: string, info: LockInfo): HeldLock {
  let released = false;
  let written = JSON.stringify(info);
  const onExit = () => release();
  function release() {
    if (released) return;
    released = true;
    process.off('exit', onExit);
    const current = readExclusive(lockPath);
    if (current && current.text === written) removeIfUnchanged(lockPath, written);
  }
  process.on('exit', onExit);
  return {
    info,
    setPort(port, host) {
      info.port = port;
      if (host) info.host = host;
      const next = JSON.stringify(info);
      // Replace our own record whole (an atomic rename): readers see the old port or the new one.
      writeFileAtomic(lockPath, next, 0o600);
      written = next;
    },
    release,
  };
}

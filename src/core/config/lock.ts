import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { RagError } from '../../shared/errors.js';

/** The writer lock: the first process to open a data dir records its pid, HTTP port (if any) and access token. */
export interface LockInfo {
  pid: number;
  port: number | null;
  token: string;
  started_at: string;
  host: string;
}

export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(lockPath: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as LockInfo;
    return typeof info.pid === 'number' ? info : undefined;
  } catch {
    return undefined;
  }
}

/** The live owner of the data dir, if another process holds it. */
export function liveLockOwner(lockPath: string): LockInfo | undefined {
  const info = readLock(lockPath);
  return info && info.pid !== process.pid && isPidAlive(info.pid) ? info : undefined;
}

export interface HeldLock {
  info: LockInfo;
  /** Record the HTTP port once the server listens, so `ragdesk mcp` can bridge to it. */
  setPort(port: number | null, host?: string): void;
  release(): void;
}

/**
 * Take the lock. A stale lock (dead pid, or unreadable) is taken over; a live one is `busy` with the owner's pid.
 * Creation uses O_EXCL so two processes starting together cannot both win.
 */
export function acquireLock(lockPath: string): HeldLock {
  for (let attempt = 0; attempt < 3; attempt++) {
    const info: LockInfo = {
      pid: process.pid,
      port: null,
      token: randomBytes(24).toString('base64url'),
      started_at: new Date().toISOString(),
      host: '127.0.0.1',
    };
    try {
      fs.writeFileSync(lockPath, JSON.stringify(info), { flag: 'wx', mode: 0o600 });
      return heldLock(lockPath, info);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readLock(lockPath);
      if (owner && owner.pid !== process.pid && isPidAlive(owner.pid)) {
        throw new RagError(
          'busy',
          `the data dir is in use by another ragdesk process (pid ${owner.pid}${owner.port ? `, serving on port ${owner.port}` : ''})`,
          {
            details: { pid: owner.pid, port: owner.port },
          },
        );
      }
      // Stale: remove and retry (a racing process may win the next round; then we see it alive).
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new RagError('busy', 'could not take the data dir lock');
}

function heldLock(lockPath: string, info: LockInfo): HeldLock {
  let released = false;
  const onExit = () => release();
  function release() {
    if (released) return;
    released = true;
    process.off('exit', onExit);
    const current = readLock(lockPath);
    if (current && current.pid === info.pid && current.token === info.token) fs.rmSync(lockPath, { force: true });
  }
  process.on('exit', onExit);
  return {
    info,
    setPort(port, host) {
      info.port = port;
      if (host) info.host = host;
      const tmp = `${lockPath}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(info), { mode: 0o600 });
      fs.renameSync(tmp, lockPath);
    },
    release,
  };
}

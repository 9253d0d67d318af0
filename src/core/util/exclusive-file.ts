import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

/**
 * Lock files that cannot be won twice. A lock is created whole or not at all: its record is written to a private
 * temp file, then hard-linked to the lock's name (`link()` fails with EEXIST when the name exists, on every local
 * file system), so no reader ever sees a half-written lock and two creators never both succeed. A stale lock is
 * taken away only under a short takeover lock, by renaming it to a name of our own and checking that what was
 * moved is the record judged stale (a different record is put back).
 */

const uniqueSuffix = () => `${process.pid}.${randomBytes(6).toString('hex')}`;

/**
 * Whether a process with this pid is running (EPERM: it exists but belongs to another user). A zombie is not: a
 * process that has exited keeps its pid until its parent reaps it, and an orphan's new parent (init in a container,
 * a CI runner's subreaper) may never do so; on Linux /proc says which (state Z or X after the name's last ')').
 */
export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return false; // no /proc (macOS, Windows), or hidden from us: kill's answer stands
  }
  const end = stat.lastIndexOf(')');
  const state = stat.slice(end + 2, end + 3);
  return state === 'Z' || state === 'X';
}

/** Create `file` holding `content` if it does not exist. True when this call created it. */
export function createExclusive(file: string, content: string): boolean {
  const tmp = `${file}.${uniqueSuffix()}.new`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // File systems without hard links (FAT, some network mounts): an exclusive create is atomic there too, but a
    // reader may see the file empty for a moment (an empty lock is treated as young, never as stale).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return createWithOpen(file, content);
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function createWithOpen(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/** The text of a lock file and its age; undefined when there is none. */
export function readExclusive(file: string): { text: string; ageMs: number } | undefined {
  try {
    const st = fs.statSync(file);
    return { text: fs.readFileSync(file, 'utf8'), ageMs: Date.now() - st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Remove `file` only if it still holds `expected`. The file is first renamed to a unique name, so exactly one
 * process can take it away; what was taken is then compared with `expected`, and anything else is linked back.
 * True when this call removed the expected record.
 */
export function removeIfUnchanged(file: string, expected: string): boolean {
  const moved = `${file}.${uniqueSuffix()}.stale`;
  try {
    fs.renameSync(file, moved);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  let text: string | undefined;
  try {
    text = fs.readFileSync(moved, 'utf8');
  } catch {
    text = undefined;
  }
  if (text === expected) {
    fs.rmSync(moved, { force: true });
    return true;
  }
  // Not the record judged stale: give it back to its owner (never over a lock someone made meanwhile).
  try {
    fs.linkSync(moved, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') {
      try {
        fs.renameSync(moved, file);
        return false;
      } catch {
        // Nothing better can be done.
      }
    }
  }
  fs.rmSync(moved, { force: true });
  return false;
}

/** Sleep synchronously (only where a caller must stay synchronous, e.g. taking the data dir at start). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The takeover lock is held for microseconds; one older than this (or whose process died) was abandoned. */
const TAKEOVER_STALE_MS = 5_000;

function takeoverIsStale(text: string, ageMs: number): boolean {
  try {
    const { pid } = JSON.parse(text) as { pid?: unknown };
    if (typeof pid === 'number' && !isPidAlive(pid)) return true;
  } catch {
    // Unreadable: judged by age only.
  }
  return ageMs > TAKEOVER_STALE_MS;
}

export type ExclusiveOutcome = { ok: true } | { ok: false; holder: string | undefined };

export interface AcquireOptions {
  /** Whether a lock with this text and age is abandoned and may be taken away. */
  isStale: (text: string, ageMs: number) => boolean;
  /** How many rounds to try (each round: create, or judge and maybe take over). Default 20. */
  rounds?: number;
  /** Sleep between rounds while another process is mid-takeover; 0 never waits (default 5 ms). */
  waitMs?: number;
}

/**
 * Take `file` with `content`: create it exclusively, or take a stale one over. Removing a stale lock happens only
 * while holding `<file>.takeover`, so two processes can never both remove a lock and both create theirs; the
 * record is re-read under it, and removed only if it is still the one judged stale.
 */
export function acquireExclusive(file: string, content: string, options: AcquireOptions): ExclusiveOutcome {
  const rounds = options.rounds ?? 20;
  const waitMs = options.waitMs ?? 5;
  let holder: string | undefined;
  for (let round = 0; round < rounds; round++) {
    if (createExclusive(file, content)) return { ok: true };
    const current = readExclusive(file);
    if (!current) continue;
    holder = current.text;
    if (!options.isStale(current.text, current.ageMs)) return { ok: false, holder };
    const takeover = `${file}.takeover`;
    const mine = JSON.stringify({ pid: process.pid, nonce: randomBytes(8).toString('hex') });
    if (!createExclusive(takeover, mine)) {
      const other = readExclusive(takeover);
      if (other && takeoverIsStale(other.text, other.ageMs)) removeIfUnchanged(takeover, other.text);
      else if (waitMs > 0) sleepSync(waitMs);
      continue;
    }
    try {
      const again = readExclusive(file);
      if (again && again.text === current.text && options.isStale(again.text, again.ageMs)) removeIfUnchanged(file, again.text);
      if (createExclusive(file, content)) return { ok: true };
    } finally {
      removeIfUnchanged(takeover, mine);
    }
  }
  return { ok: false, holder };
}

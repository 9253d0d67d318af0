import { readFileSync } from 'node:fs';

/**
 * Stop with the process that started us: `npm start` (scripts/start.js) passes its pid as RAGDESK_PARENT_PID to
 * the server or the desktop app it spawns. When that process dies without a word (kill -9 of npm), the child is
 * re-parented, so its parent pid changes: then `onGone` runs once. A named parent that is already gone when the
 * watch starts (killed before this process got that far, so it was re-parented before it could look) counts as
 * gone too. Without the variable, or when it names a live process that is not our parent (an inherited
 * environment), nothing is watched.
 */
export function watchParent(
  onGone: () => void,
  options: { env?: NodeJS.ProcessEnv; ppid?: () => number; alive?: (pid: number) => boolean; intervalMs?: number } = {},
): { stop(): void } {
  const ppid = options.ppid ?? (() => process.ppid);
  const alive = options.alive ?? isAlive;
  const parent = Number((options.env ?? process.env).RAGDESK_PARENT_PID);
  if (!(parent > 0)) return { stop() {} };
  if (parent !== ppid()) {
    if (alive(parent)) return { stop() {} };
    const soon = setImmediate(onGone);
    return { stop: () => clearImmediate(soon) };
  }
  const timer = setInterval(() => {
    if (ppid() === parent) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? 500);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Whether a process with this pid runs (one we may not signal runs too). A parent killed a moment ago may still be
 * a zombie, signalable until its own parent reaps it: on Linux its state in /proc says so, and it counts as gone.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // "pid (comm) S ...": the state is the first field after the last ')' (comm may hold spaces and parentheses).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] === 'Z';
  } catch {
    return false; // no /proc (macOS, Windows) or the process just went: kill() above answered
  }
}

/**
 * Stop with the process that started us: `npm start` (scripts/start.js) passes its pid as RAGDESK_PARENT_PID to
 * the server or the desktop app it spawns. When that process dies without a word (kill -9 of npm), the child is
 * re-parented, so its parent pid changes: then `onGone` runs once. Without the variable, or when the variable
 * names another process than our parent (an inherited environment), nothing is watched.
 */
export function watchParent(
  onGone: () => void,
  options: { env?: NodeJS.ProcessEnv; ppid?: () => number; intervalMs?: number } = {},
): { stop(): void } {
  const ppid = options.ppid ?? (() => process.ppid);
  const parent = Number((options.env ?? process.env).RAGDESK_PARENT_PID);
  if (!(parent > 0) || parent !== ppid()) return { stop() {} };
  const timer = setInterval(() => {
    if (ppid() === parent) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? 500);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

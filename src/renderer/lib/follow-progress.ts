import type { Progress } from '../../shared/contract/index.js';

/**
 * Poll `getProgress` for an operation running under `token` (an upload whose scan is being read by OCR) and hand each
 * new state to `onProgress`, until `stop()`. A failed poll is skipped: progress is a nicety, never the operation.
 */
export function followProgress(
  getProgress: (input: { token: string }) => Promise<Progress>,
  token: string,
  onProgress: (p: NonNullable<Progress>) => void,
  intervalMs = 700,
): () => void {
  let stopped = false;
  let last = '';
  const tick = async () => {
    if (stopped) return;
    try {
      const p = await getProgress({ token });
      const key = p ? `${p.stage}:${p.done}/${p.total}` : '';
      if (p && !stopped && key !== last) {
        last = key;
        onProgress(p);
      }
    } catch {
      // the next poll may answer
    }
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };
  let timer = setTimeout(tick, intervalMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** A token for `progress_token`: 8-64 letters, digits, `_` or `-`. */
export function progressToken(): string {
  return `up-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
}

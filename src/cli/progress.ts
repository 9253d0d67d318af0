import { randomBytes } from 'node:crypto';
import cliProgress from 'cli-progress';
import type { Progress as OpProgress, RagClient } from '../shared/contract/index.js';

/** A progress bar on stderr when it is a terminal (and not --json); silent otherwise. */
export interface Progress {
  start(total: number, label: string): void;
  update(done: number, detail?: string): void;
  stop(): void;
}

export function createProgress(enabled: boolean): Progress {
  if (!enabled || !process.stderr.isTTY) return { start() {}, update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: '{label} [{bar}] {value}/{total} {detail}', hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  return {
    start: (total, label) => bar.start(total, 0, { label, detail: '' }),
    update: (done, detail) => bar.update(done, { detail: detail ?? '' }),
    stop: () => bar.stop(),
  };
}

/** A fresh token for an operation's progress (`progress_token`, read back with `getProgress`). */
export function progressToken(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * Poll `getProgress` while `call` runs and hand each answer to `onUpdate`: the same progress bar whether the
 * operation runs in this process or in the owner of the data dir.
 */
export async function whileProgress<T>(
  client: RagClient,
  token: string,
  call: Promise<T>,
  onUpdate: (p: NonNullable<OpProgress>) => void,
  intervalMs = 200,
): Promise<T> {
  let settled = false;
  const done = call.finally(() => {
    settled = true;
  });
  const poll = (async () => {
    while (!settled) {
      await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, intervalMs))]);
      if (settled) break;
      const p = await client.getProgress({ token }).catch(() => null);
      if (p && !settled) onUpdate(p);
    }
  })();
  try {
    return await done;
  } finally {
    await poll;
  }
}

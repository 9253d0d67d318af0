import cliProgress from 'cli-progress';

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

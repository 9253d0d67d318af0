import type { Progress } from '../../shared/contract/index.js';

type Entry = NonNullable<Progress> & { at: number };

/** How long a finished operation's last progress stays readable (a poller's last look). */
const KEEP_FINISHED_MS = 60_000;
const MAX_ENTRIES = 1_000;

/** Reports one operation's progress under its token (a no-op without a token). */
export interface ProgressReporter {
  (stage: string, done: number, total: number, detail?: string | null): void;
  finish(): void;
}

/**
 * Progress of long contract operations (adding files, evaluating, resuming jobs) under client-chosen tokens, so any
 * client, in-process or over `/api`, can draw the same progress bar by polling `getProgress`.
 */
export class ProgressRegistry {
  private readonly entries = new Map<string, Entry>();

  reporter(token: string | undefined): ProgressReporter {
    const report = ((stage: string, done: number, total: number, detail: string | null = null) => {
      if (!token) return;
      this.prune();
      this.entries.set(token, { stage, done, total, detail, finished: false, at: Date.now() });
    }) as ProgressReporter;
    report.finish = () => {
      if (!token) return;
      const e = this.entries.get(token);
      if (e) this.entries.set(token, { ...e, finished: true, at: Date.now() });
    };
    return report;
  }

  get(token: string): Progress {
    const e = this.entries.get(token);
    if (!e) return null;
    const { at: _at, ...progress } = e;
    return progress;
  }

  private prune(): void {
    const now = Date.now();
    for (const [token, e] of this.entries) if (e.finished && now - e.at > KEEP_FINISHED_MS) this.entries.delete(token);
    while (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}

const registries = new WeakMap<object, ProgressRegistry>();

/** The registry of one engine (keyed by its context). */
export function progressOf(owner: object): ProgressRegistry {
  let r = registries.get(owner);
  if (!r) registries.set(owner, (r = new ProgressRegistry()));
  return r;
}

import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { toPosix, type SourceFilter } from './scan.js';

export interface WatchOptions {
  root: string;
  filter: SourceFilter;
  recursive: boolean;
  /** Follow symbolic links (the source's follow_links); otherwise a link is reported as itself and never entered. */
  followLinks?: boolean;
  /** Quiet time before changes are handed over. */
  debounceMs?: number;
  /** Longest a burst of changes is held back. */
  maxWaitMs?: number;
  /** Changed paths (relative; files or folders; '' for the whole folder). */
  onChanges: (paths: string[]) => void;
  onError?: (err: unknown) => void;
}

/**
 * Watch a source folder (chokidar) and hand over changed paths in debounced batches. Editors' atomic saves
 * (write a temp file, rename it over the original) arrive as a change of the original: chokidar folds them, temp
 * files are dot-files or vanish before the batch is handed over, and the sync looks at each path as it is then.
 */
export class SourceWatcher {
  private watcher: FSWatcher | undefined;
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private firstAt = 0;

  constructor(private readonly o: WatchOptions) {}

  async start(): Promise<void> {
    const { root, filter } = this.o;
    const rel = (p: string) => toPosix(path.relative(root, p));
    this.watcher = watch(root, {
      ignoreInitial: true,
      persistent: true,
      atomic: true,
      followSymlinks: this.o.followLinks ?? false,
      ...(this.o.recursive ? {} : { depth: 0 }),
      awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 },
      ignored: (p, stats) => {
        const r = rel(p);
        if (!r || r.startsWith('..')) return false;
        if (filter.excluded(r)) return true;
        return Boolean(stats?.isFile() && !filter.accepts(r));
      },
    });
    const mark = (p: string) => this.mark(rel(p));
    this.watcher.on('add', mark).on('change', mark).on('unlink', mark).on('addDir', mark).on('unlinkDir', mark);
    this.watcher.on('error', (err) => this.o.onError?.(err));
    await new Promise<void>((resolve) => this.watcher!.once('ready', resolve));
  }

  private mark(rel: string): void {
    if (rel.startsWith('..')) return;
    this.dirty.add(rel);
    const now = Date.now();
    if (!this.timer) this.firstAt = now;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.o.debounceMs ?? 500, this.firstAt + (this.o.maxWaitMs ?? 3000) - now));
    this.timer = setTimeout(() => this.fire(), wait);
  }

  private fire(): void {
    this.timer = undefined;
    if (this.dirty.size === 0) return;
    const paths = [...this.dirty];
    this.dirty.clear();
    this.o.onChanges(paths.includes('') ? [''] : paths);
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty.clear();
    await this.watcher?.close();
  }
}

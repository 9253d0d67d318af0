import type { JobItem, Outcome } from './journal.js';

const OUTCOMES: readonly Outcome[] = ['added', 'updated', 'unchanged', 'skipped', 'failed', 'deleted'];

/**
 * The settled items of a job (by their index in the job's items) and the totals its progress reports, in typed
 * arrays. A job holds this for as long as it runs; a line object per settled file in a map (outcome, chunks, ledger
 * record) came to ~100 bytes a file of the main heap, ~5 MB for a folder of 50,000 files, which V8 sizes its heap
 * at about twice. The totals are kept as items settle, so the progress asked for after every batch no longer walks
 * every settled file.
 */
export class SettledItems {
  /** 0: not settled; else 1 + the outcome's index in OUTCOMES. */
  private outcomes: Uint8Array;
  private chunkCounts: Int32Array;
  private count = 0;
  /** Chunks written by the settled items. */
  chunks = 0;
  /** Settled items that failed. */
  failed = 0;
  /** Bytes of the settled items (their size when the job was made). */
  bytesDone = 0;
  /** Bytes of all the job's items. */
  bytesTotal = 0;

  constructor(private items: readonly JobItem[]) {
    this.outcomes = new Uint8Array(items.length);
    this.chunkCounts = new Int32Array(items.length);
    for (const item of items) this.bytesTotal += item.bytes;
  }

  /** How many items are settled. */
  get size(): number {
    return this.count;
  }

  has(i: number): boolean {
    return (this.outcomes[i] ?? 0) > 0;
  }

  /** What became of item `i`; undefined while it is not settled. */
  outcomeOf(i: number): Outcome | undefined {
    const code = this.outcomes[i] ?? 0;
    return code > 0 ? OUTCOMES[code - 1] : undefined;
  }

  /** Chunks item `i` wrote (0 while it is not settled). */
  chunksOf(i: number): number {
    return this.chunkCounts[i] ?? 0;
  }

  /**
   * Settle item `i` (settled again: its earlier outcome no longer counts). False when the job has no item `i` (a
   * journal line that does not belong to its header), which is then ignored.
   */
  set(i: number, outcome: Outcome, chunks: number): boolean {
    if (!Number.isInteger(i) || i < 0 || i >= this.outcomes.length) return false;
    const before = this.outcomeOf(i);
    if (before === undefined) {
      this.count++;
      this.bytesDone += this.items[i]!.bytes;
    } else {
      this.chunks -= this.chunkCounts[i]!;
      if (before === 'failed') this.failed--;
    }
    this.outcomes[i] = OUTCOMES.indexOf(outcome) + 1;
    this.chunkCounts[i] = chunks;
    this.chunks += chunks;
    if (outcome === 'failed') this.failed++;
    return true;
  }

  /** Forget every item (a finished job keeps its progress summary only). */
  clear(): void {
    this.items = [];
    this.outcomes = new Uint8Array(0);
    this.chunkCounts = new Int32Array(0);
    this.count = 0;
    this.chunks = 0;
    this.failed = 0;
    this.bytesDone = 0;
    this.bytesTotal = 0;
  }
}

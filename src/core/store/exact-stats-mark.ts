import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/json-file.js';

/**
 * A chunk table's record that its full-text index counts only live rows, so that LanceDB's own BM25 scores and
 * statistics are exact (see lexical-index.ts, `exactStats`). LanceDB keeps a removed row in its statistics, and its
 * version history stops telling once upkeep compacts or prunes it; so this process, the only one writing the data
 * dir (the writer lock), says it itself:
 * - written (with the table version) after the index was built from the table's rows (upkeep builds it afresh);
 * - removed before any commit that removes or rewrites rows, so that a kill -9 at any line leaves it absent (and
 *   the next start counts, the safe way) or true.
 * A file beside the LanceDB tables: `.fts-exact-<table>`, holding `{"version": N}`. What it cannot see: a writer
 * that does not keep it (a ragdesk from before it, run on the same data dir) removing rows while it is there.
 */
export class ExactStatsMark {
  constructor(private readonly file: string | undefined) {}

  static in(dir: string | undefined, table: string): ExactStatsMark {
    return new ExactStatsMark(dir ? path.join(dir, `.fts-exact-${table}`) : undefined);
  }

  /** Whether the mark says the index was exact at a version at or before `version` (the table's now). */
  holds(version: number): boolean {
    if (!this.file) return false;
    try {
      const v = (JSON.parse(fs.readFileSync(this.file, 'utf8')) as { version?: unknown }).version;
      return typeof v === 'number' && Number.isInteger(v) && v <= version;
    } catch {
      return false;
    }
  }

  /**
   * Record that the index is exact at `version` (atomically: a torn file reads as absent). A record that cannot be
   * written (a full disk) is only a lost shortcut, so upkeep goes on: an earlier record left in place still holds
   * (it would have been cleared by any removal since), and without one the next start counts instead.
   */
  set(version: number): void {
    if (!this.file) return;
    try {
      writeFileAtomic(this.file, JSON.stringify({ version }));
    } catch {
      // see above
    }
  }

  /** Before rows go: the index stops being exact with the next commit (a record that cannot go stops the write). */
  clear(): void {
    if (this.file) fs.rmSync(this.file, { force: true });
  }
}

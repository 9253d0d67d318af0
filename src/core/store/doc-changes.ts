/** What changed in one KB's document rows after a point (see DocChanges.since). */
export interface DocChangeSet {
  /** doc_ids written or deleted. */
  docIds: ReadonlySet<string>;
  /** Content hashes written. */
  hashes: ReadonlySet<string>;
}

/** One KB's part of a mutation. */
export interface DocChange {
  kbId: string;
  /** The doc_ids written or deleted; 'all': every document of the KB (a KB removed). */
  docIds: readonly string[] | 'all';
  /** The content hashes written. */
  hashes: readonly string[];
}

interface Entry extends DocChange {
  seq: number;
}

/** Entries kept; a point older than the oldest kept has an unknown change set. */
const KEPT = 256;
/** A mutation of more documents than this is kept as a change of all of them. */
const MAX_IDS = 2_048;

/**
 * The recent mutations of the documents table made by this process, so that a decision taken on what a read saw
 * (a write's new / replace / duplicate check, taken before the KB's write lock) can be kept under the lock when
 * nothing it depends on changed since, instead of being read again. This process is the only writer of its data
 * dir (config/lock.ts). A mutation counts from the moment it starts until it is committed: it is recorded when it
 * starts and again when it ends, so a read that overlapped it sees it in `since` whichever version it read.
 */
export class DocChanges {
  private seq = 0;
  /** The highest seq no longer kept. */
  private dropped = 0;
  private readonly entries: Entry[] = [];

  /** The current point: take it before a read whose outcome `since` is asked about later. */
  get now(): number {
    return this.seq;
  }

  /** Run a mutation of document rows (per KB: the doc_ids written or deleted, the content hashes written), recorded around it. */
  async around<T>(changes: ReadonlyArray<DocChange>, work: () => Promise<T>): Promise<T> {
    const entries = changes.map(({ kbId, docIds, hashes }) =>
      docIds === 'all' || docIds.length > MAX_IDS ? { kbId, docIds: 'all' as const, hashes: [] } : { kbId, docIds, hashes },
    );
    for (const e of entries) this.record(e);
    try {
      return await work();
    } finally {
      for (const e of entries) this.record(e);
    }
  }

  /** What changed in `kbId`'s rows after point `at`; undefined when that is not known (too long ago, or the whole KB). */
  since(kbId: string, at: number): DocChangeSet | undefined {
    if (at < this.dropped) return undefined;
    const docIds = new Set<string>();
    const hashes = new Set<string>();
    for (const e of this.entries) {
      if (e.seq <= at || e.kbId !== kbId) continue;
      if (e.docIds === 'all') return undefined;
      for (const id of e.docIds) docIds.add(id);
      for (const h of e.hashes) hashes.add(h);
    }
    return { docIds, hashes };
  }

  private record(entry: Omit<Entry, 'seq'>): void {
    this.entries.push({ seq: ++this.seq, ...entry });
    if (this.entries.length > KEPT) this.dropped = this.entries.shift()!.seq;
  }
}

/**
 * One copy of each short label (an encoding's or a parser's name) however many records keep it. A string that
 * comes from a worker thread is a copy of its own each time, and a job keeps a ledger record per file: two such
 * labels were ~2.4 MB of copies in the records of a 50,000-file folder.
 */
export class LabelTable {
  private readonly labels = new Map<string, string>();

  /** At most `max` labels are kept (past them, labels come back as given), none longer than `maxLength`. */
  constructor(
    readonly max = 1024,
    readonly maxLength = 64,
  ) {}

  /** Labels kept. */
  get size(): number {
    return this.labels.size;
  }

  /** The kept copy of `label` (kept now if there is room). */
  intern(label: string): string {
    const kept = this.labels.get(label);
    if (kept !== undefined) return kept;
    if (this.labels.size < this.max && label.length <= this.maxLength) this.labels.set(label, label);
    return label;
  }
}

const shared = new LabelTable();

/** The process's one copy of a short label (see LabelTable). */
export function intern(label: string): string {
  return shared.intern(label);
}

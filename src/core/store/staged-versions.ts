import { sqlString } from './sql.js';

/**
 * Versions of documents being written in several commits (a streamed file: see services/stream-ingest.ts). Their
 * rows are in the chunk table but invisible: every read of the table adds `hidden()` to its filter, and deletes
 * of documents by id leave them alone, until the write is published (or dropped). One process writes a data dir
 * (the owner lock), and every reader of it goes through that process, so the set lives in memory; a crash loses
 * it together with the write, whose rows the next open removes (Store.repairInterruptedWrites).
 */
export class StagedVersions {
  private readonly versions = new Set<string>();
  private clause: string | undefined;

  add(version: string): void {
    this.versions.add(version);
    this.clause = undefined;
  }

  delete(version: string): void {
    this.versions.delete(version);
    this.clause = undefined;
  }

  has(version: string): boolean {
    return this.versions.has(version);
  }

  get size(): number {
    return this.versions.size;
  }

  /** The filter that hides staged rows (undefined when nothing is staged). */
  hidden(): string | undefined {
    if (this.versions.size === 0) return undefined;
    this.clause ??= `version NOT IN (${[...this.versions].map(sqlString).join(', ')})`;
    return this.clause;
  }

  /** `where` with staged rows hidden. */
  and(where: string | undefined): string | undefined {
    return andWhere(where, this.hidden());
  }
}

/** Two optional SQL filters, both required. */
export function andWhere(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return `(${a}) AND (${b})`;
}

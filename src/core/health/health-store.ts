import fs from 'node:fs';
import path from 'node:path';
import { HEALTH_STATUSES, type ParsedInput, type HealthEntry, type HealthReport, type HealthStatus } from '../../shared/contract/index.js';
import type { CoreContext } from '../services/context.js';
import { FileLedger, ledgerPath, type FileRecord } from './ledger.js';

/** Statuses that mean "not in the KB because it could not be read". */
export const FAILED_STATUSES: ReadonlySet<HealthStatus> = new Set(['encrypted', 'corrupt', 'too_large', 'unsupported', 'error']);
/** Statuses that mean "left out on purpose". */
export const SKIPPED_STATUSES: ReadonlySet<HealthStatus> = new Set(['no_text_layer', 'empty', 'duplicate']);
const FINE: ReadonlySet<HealthStatus> = new Set(['ok', 'unchanged']);

/** The ledgers of every KB: one per source, one for files added directly; loaded on first use and kept. */
export class HealthStore {
  private readonly ledgers = new Map<string, FileLedger>();

  constructor(private readonly dataDir: string) {}

  ledger(kbId: string, sourceId: string | null): FileLedger {
    const file = ledgerPath(this.dataDir, kbId, sourceId);
    let ledger = this.ledgers.get(file);
    if (!ledger) this.ledgers.set(file, (ledger = new FileLedger(file)));
    return ledger;
  }

  /** Every ledger of a KB (those on disk and those only in memory so far). */
  ledgersOf(kbId: string): FileLedger[] {
    const dir = path.join(this.dataDir, 'health', kbId);
    const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
    for (const name of names) {
      const id = name.slice(0, -'.json'.length);
      this.ledger(kbId, id === '_files' ? null : id);
    }
    const prefix = path.join(dir, path.sep);
    return [...this.ledgers.values()].filter((l) => l.file.startsWith(prefix));
  }

  dropSource(kbId: string, sourceId: string): void {
    const file = ledgerPath(this.dataDir, kbId, sourceId);
    (this.ledgers.get(file) ?? new FileLedger(file)).remove();
    this.ledgers.delete(file);
  }

  dropKb(kbId: string): void {
    for (const l of this.ledgersOf(kbId)) this.ledgers.delete(l.file);
    fs.rmSync(path.join(this.dataDir, 'health', kbId), { recursive: true, force: true });
  }
}

const rank = (s: HealthStatus) => HEALTH_STATUSES.indexOf(s);

export function toEntry(r: FileRecord): HealthEntry {
  const { mtime_ms: _m, file_hash: _h, ...entry } = r;
  return entry;
}

/** The last health report of a KB: one entry per file ingested through a source or `ragdesk add`, worst first. */
export async function healthReport(ctx: CoreContext, store: HealthStore, input: ParsedInput<'healthReport'>): Promise<HealthReport> {
  const kb = ctx.store.registry.get(input.kb_id);
  const ledgers = store.ledgersOf(kb.kb_id);
  // The documents the ledgers name, of those the KB holds (not every document of a large KB).
  const named = new Set<string>();
  for (const ledger of ledgers) for (const r of ledger.values()) if (r.doc_id !== null) named.add(r.doc_id);
  const present = new Set((await ctx.store.docs.docHashes(kb.kb_id, (id) => named.has(id))).keys());
  const all: HealthEntry[] = [];
  const counts: Record<string, number> = {};
  let updated: string | null = null;
  for (const ledger of ledgers) {
    for (const r of ledger.values()) {
      // A document deleted since (by hand, or with its KB emptied) is no longer indexed.
      const entry = { ...toEntry(r), indexed: r.indexed && r.doc_id !== null && present.has(r.doc_id) };
      counts[entry.status] = (counts[entry.status] ?? 0) + 1;
      if (!updated || entry.checked_at > updated) updated = entry.checked_at;
      all.push(entry);
    }
  }
  const wanted = input.status ? new Set(input.status) : undefined;
  const files = all
    .filter(
      (e) =>
        (!input.source_id || e.source_id === input.source_id) &&
        (!wanted || wanted.has(e.status)) &&
        (!input.problems || !FINE.has(e.status)),
    )
    .sort((a, b) => rank(a.status) - rank(b.status) || a.file.localeCompare(b.file));
  return {
    kb_id: kb.kb_id,
    embedding_model: kb.embedding_model,
    updated_at: updated,
    total: files.length,
    counts,
    files: files.slice(input.offset, input.offset + input.limit),
  };
}

import fs from 'node:fs/promises';
import path from 'node:path';
import type { SourceCounts, SyncSummary } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { FAILED_STATUSES, SKIPPED_STATUSES } from '../health/health-store.js';
import type { FileLedger, FileRecord } from '../health/ledger.js';
import type { JobRuntime } from '../jobs/files-job.js';
import type { ItemLine, JobHandle, JobItem } from '../jobs/journal.js';
import { knownDocs } from '../jobs/runner.js';
import { scanFolder, sourceFilter, statForSource, type ScannedFile } from './scan.js';
import type { SourceConfig } from './source-registry.js';

export interface SyncRequest {
  /** Only these paths (relative; files or folders) instead of the whole folder: what a watcher saw change. */
  paths?: string[];
  /** Re-read every file, ignoring the size+mtime shortcut. */
  force?: boolean;
}

export interface SyncHooks {
  /** The job the sync is running now (null when none). */
  onJob?: (job: JobHandle | null) => void;
  onProgress?: (job: JobHandle) => void;
  /** Checked before each job starts: true stops the sync there (closing, paused). */
  isStopped?: () => boolean;
}

type Tally = Omit<SyncSummary, 'started_at' | 'finished_at' | 'duration_ms' | 'files'>;

export function countsOf(ledger: FileLedger): SourceCounts {
  const counts = { files: 0, indexed: 0, skipped: 0, failed: 0 };
  for (const r of ledger.values()) {
    counts.files++;
    if (r.indexed) counts.indexed++;
    else if (FAILED_STATUSES.has(r.status)) counts.failed++;
    else if (SKIPPED_STATUSES.has(r.status)) counts.skipped++;
  }
  return counts;
}

/** Whether a file must be looked at again: new, changed by size or mtime, or its record no longer holds. */
function needsWork(rec: FileRecord | undefined, f: ScannedFile, docId: string, docs: Map<string, string>, leaving: Set<string>): boolean {
  if (!rec || rec.bytes !== f.size || rec.mtime_ms !== f.mtimeMs || rec.doc_id !== docId) return true;
  if (rec.indexed && !docs.has(docId)) return true;
  if (rec.status === 'duplicate') return !rec.duplicate_of || !docs.has(rec.duplicate_of) || leaving.has(rec.duplicate_of);
  return rec.status === 'error';
}

/**
 * Sync a folder source: finish any job an earlier run left, scan (the whole folder or the given paths), and run
 * a job with what changed: deleted files first (so a renamed file is not taken for a duplicate of itself), then
 * new and changed files in path order. Unchanged files cost a stat; nothing is read, parsed or embedded.
 */
export async function runSync(rt: JobRuntime, cfg: SourceConfig, req: SyncRequest, hooks: SyncHooks = {}): Promise<SyncSummary> {
  const started = new Date();
  const ledger = rt.health.ledger(cfg.kb_id, cfg.source_id);
  const tally: Tally = { added: 0, updated: 0, deleted: 0, unchanged: 0, skipped: 0, failed: 0 };
  const summary = (): SyncSummary => {
    const finished = new Date();
    return {
      started_at: started.toISOString(),
      finished_at: finished.toISOString(),
      duration_ms: finished.getTime() - started.getTime(),
      files: ledger.size,
      ...tally,
    };
  };
  const run = async (job: JobHandle, docs?: Map<string, string>) => {
    hooks.onJob?.(job);
    try {
      await rt.jobs.run(rt.ctx, job, {
        ledger,
        mirror: true,
        ...(docs ? { docs } : {}),
        ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
        onSettle: (lines: readonly ItemLine[]) => {
          for (const l of lines) tally[l.outcome]++;
        },
      });
    } finally {
      hooks.onJob?.(null);
    }
    return job.finished;
  };

  for (const job of rt.jobs.unfinished({ kind: 'sync', source_id: cfg.source_id })) {
    if (hooks.isStopped?.() || !(await run(job))) return summary();
  }

  const root = await fs.stat(cfg.path).catch(() => undefined);
  if (!root?.isDirectory()) {
    throw new RagError('invalid_parameter', `the folder ${cfg.path} is not there (moved, or a drive not mounted?): nothing was changed`, {
      details: { path: cfg.path },
    });
  }
  const filter = sourceFilter(cfg);
  const prefix = `${cfg.source_id}/`;
  const candidates = new Set<string>();
  let scanned = new Map<string, ScannedFile>();
  let docs: Map<string, string>;
  const full = !req.paths || req.paths.includes('');
  // Only changed files (what a watcher reports): look up just their documents. Folders, deletions, full scans:
  // one scan of two columns of the KB's documents, keeping this source's and those its duplicates point at.
  const stats = full
    ? []
    : await Promise.all([...new Set(req.paths)].map(async (rel) => ({ rel, st: await statForSource(cfg.path, rel, cfg.follow_links) })));
  if (full || stats.some((s) => !s.st?.isFile())) {
    const targets = new Set<string>();
    for (const rec of ledger.values()) if (rec.duplicate_of) targets.add(rec.duplicate_of);
    docs = await rt.ctx.store.docs.docHashes(cfg.kb_id, (id) => id.startsWith(prefix) || targets.has(id));
  } else {
    const ids = stats.flatMap(({ rel }) => [`${prefix}${rel}`, ledger.get(rel)?.duplicate_of ?? `${prefix}${rel}`]);
    docs = await knownDocs(rt.ctx, cfg.kb_id, ids);
  }
  const ours = [...docs.keys()].filter((id) => id.startsWith(prefix)).map((id) => id.slice(prefix.length));
  if (full) {
    scanned = await scanFolder(cfg.path, filter, cfg.recursive, '', cfg.follow_links);
    for (const rel of [...scanned.keys(), ...ledger.keys(), ...ours]) candidates.add(rel);
  } else {
    for (const { rel, st } of stats) {
      const abs = path.join(cfg.path, rel);
      if (st?.isDirectory())
        for (const [k, f] of await scanFolder(cfg.path, filter, cfg.recursive, rel, cfg.follow_links)) scanned.set(k, f);
      else if (st?.isFile() && filter.accepts(rel)) scanned.set(rel, { rel, abs, size: st.size, mtimeMs: st.mtimeMs });
      candidates.add(rel);
      const under = `${rel}/`;
      for (const k of [...ledger.keys(), ...ours, ...scanned.keys()]) if (k.startsWith(under)) candidates.add(k);
    }
  }

  const item = (rel: string, action: JobItem['action'], bytes: number): JobItem => ({
    key: rel,
    file: path.join(cfg.path, rel),
    doc_id: `${prefix}${rel}`,
    source: rel,
    action,
    bytes,
  });
  const deletes: JobItem[] = [];
  const leaving = new Set<string>();
  for (const rel of candidates) {
    if (scanned.has(rel)) continue;
    if (ledger.get(rel) || docs.has(`${prefix}${rel}`)) deletes.push(item(rel, 'delete', 0));
    leaving.add(`${prefix}${rel}`);
  }
  // Files skipped as duplicates of a document that is going away get their own turn.
  for (const rec of ledger.values()) {
    if (rec.status !== 'duplicate' || !rec.duplicate_of || !leaving.has(rec.duplicate_of) || candidates.has(rec.file)) continue;
    const st = await statForSource(cfg.path, rec.file, cfg.follow_links);
    if (st?.isFile()) scanned.set(rec.file, { rel: rec.file, abs: path.join(cfg.path, rec.file), size: st.size, mtimeMs: st.mtimeMs });
    candidates.add(rec.file);
  }
  const index: JobItem[] = [];
  for (const rel of [...candidates].sort()) {
    const f = scanned.get(rel);
    if (!f) continue;
    if (req.force || needsWork(ledger.get(rel), f, `${prefix}${rel}`, docs, leaving)) index.push(item(rel, 'index', f.size));
    else tally.unchanged++;
  }
  if (deletes.length + index.length === 0 || hooks.isStopped?.()) return summary();
  const job = rt.jobs.create({
    kind: 'sync',
    kb_id: cfg.kb_id,
    source_id: cfg.source_id,
    // Without following links, each file is read only if it is still reached without one (checked at read time).
    options: { overwrite: true, force: Boolean(req.force), ...(cfg.follow_links ? {} : { within: await fs.realpath(cfg.path) }) },
    items: [...deletes, ...index],
  });
  await run(job, docs);
  return summary();
}

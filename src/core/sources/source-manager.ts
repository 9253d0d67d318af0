import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type ParsedInput, type Source, type SyncSourceResult, type SyncSummary } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { deleteDocs } from '../jobs/delete-docs.js';
import { resumeFileJobs, type JobRuntime } from '../jobs/files-job.js';
import type { JobHandle } from '../jobs/journal.js';
import { KeyedMutex } from '../util/keyed-mutex.js';
import { sourceFilter } from './scan.js';
import { SourceRegistry, type SourceConfig } from './source-registry.js';
import { countsOf, runSync, type SyncRequest } from './sync.js';
import { SourceWatcher } from './watcher.js';

const EMPTY_COUNTS = { files: 0, indexed: 0, skipped: 0, failed: 0 };

function newSourceId(folder: string, taken: (id: string) => boolean): string {
  const slug =
    path
      .basename(folder)
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 24) || 'folder';
  for (;;) {
    const id = `${slug}-${crypto.randomBytes(2).toString('hex')}`;
    if (!taken(id)) return id;
  }
}

/**
 * Folder sources: their records, one sync at a time per source, and (in a long-running process) a watcher per
 * source plus a rescan at start. Syncs run as persisted jobs (see jobs/), so an interrupted one resumes.
 */
export class SourceManager {
  private readonly registry: SourceRegistry;
  private readonly watchers = new Map<string, SourceWatcher>();
  private readonly mutex = new KeyedMutex();
  private readonly current = new Map<string, JobHandle>();
  private readonly busy = new Map<string, number>();
  private readonly background = new Set<Promise<unknown>>();
  private watching = false;
  private closed = false;
  private startup: Promise<void> | undefined;

  constructor(
    private readonly rt: JobRuntime,
    file: string,
  ) {
    this.registry = new SourceRegistry(file);
  }

  private view(cfg: SourceConfig): Source {
    const syncing = (this.busy.get(cfg.source_id) ?? 0) > 0;
    return {
      ...cfg,
      state: cfg.paused ? 'paused' : syncing ? 'syncing' : cfg.last_error ? 'error' : 'idle',
      watching: this.watchers.has(cfg.source_id),
      job_id: this.current.get(cfg.source_id)?.id ?? null,
    };
  }

  list(kbId?: string, readable?: ReadonlySet<string>): Source[] {
    return this.registry
      .list(kbId)
      .filter((s) => !readable || readable.has(s.kb_id))
      .map((s) => this.view(s));
  }

  get(id: string): Source {
    return this.view(this.registry.get(id));
  }

  /** Add a source; `syncNow: false` leaves the first sync to the caller (the CLI runs it with a progress bar). */
  async add(input: ParsedInput<'addSource'>, syncNow = true): Promise<Source> {
    this.rt.ctx.store.registry.get(input.kb_id);
    const folder = path.resolve(input.path);
    if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
      throw new RagError('invalid_parameter', `not a folder: ${folder}`, { details: { path: folder } });
    }
    const same = this.registry.list(input.kb_id).find((s) => s.path === folder);
    if (same)
      throw new RagError('invalid_parameter', `${folder} is already source "${same.source_id}" of "${input.kb_id}"`, {
        details: { source_id: same.source_id },
      });
    if (input.source_id && this.registry.find(input.source_id))
      throw new RagError('invalid_parameter', `source "${input.source_id}" already exists`);
    const cfg: SourceConfig = {
      source_id: input.source_id ?? newSourceId(folder, (id) => Boolean(this.registry.find(id))),
      kb_id: input.kb_id,
      path: folder,
      include: input.include,
      exclude: input.exclude,
      recursive: input.recursive,
      follow_links: input.follow_links,
      paused: false,
      created_at: new Date().toISOString(),
      last_sync_at: null,
      last_sync: null,
      last_error: null,
      counts: EMPTY_COUNTS,
    };
    this.registry.put(cfg);
    if (this.watching) await this.startWatcher(cfg);
    if (!syncNow) return this.get(cfg.source_id);
    if (input.sync) await this.sync(cfg.source_id, {}).catch(() => undefined);
    else this.spawn(this.sync(cfg.source_id, {}));
    return this.get(cfg.source_id);
  }

  /**
   * Sync one source now (queued behind a sync already running for it). Explicit syncs run even while the
   * source is paused; the watcher's and the start-up rescan's do not.
   */
  sync(id: string, req: SyncRequest, automatic = false, onProgress?: (job: JobHandle) => void): Promise<SyncSummary> {
    if (!this.registry.find(id))
      return Promise.reject(
        new RagError('invalid_parameter', `no folder source "${id}" (see: ragdesk sources list)`, { details: { source_id: id } }),
      );
    this.busy.set(id, (this.busy.get(id) ?? 0) + 1);
    return this.mutex
      .run(id, async () => {
        const cfg = this.registry.find(id);
        if (!cfg) throw new RagError('invalid_parameter', `source "${id}" was removed`);
        const ledger = this.rt.health.ledger(cfg.kb_id, cfg.source_id);
        if (this.closed || (automatic && cfg.paused)) {
          const now = new Date().toISOString();
          return {
            started_at: now,
            finished_at: now,
            duration_ms: 0,
            files: ledger.size,
            added: 0,
            updated: 0,
            deleted: 0,
            unchanged: 0,
            skipped: 0,
            failed: 0,
          };
        }
        try {
          const summary = await runSync(this.rt, cfg, req, {
            onJob: (job) => (job ? this.current.set(id, job) : this.current.delete(id)),
            ...(onProgress ? { onProgress } : {}),
            isStopped: () => this.closed || (automatic && Boolean(this.registry.find(id)?.paused)),
          });
          this.registry.patch(id, { last_sync_at: summary.finished_at, last_sync: summary, last_error: null, counts: countsOf(ledger) });
          return summary;
        } catch (err) {
          this.registry.patch(id, { last_error: err instanceof Error ? err.message : String(err), counts: countsOf(ledger) });
          throw err;
        }
      })
      .finally(() => this.busy.set(id, (this.busy.get(id) ?? 1) - 1));
  }

  async syncOp(input: ParsedInput<'syncSource'>): Promise<SyncSourceResult> {
    if (!input.wait) {
      this.spawn(this.sync(input.source_id, { force: input.force }));
      return { source: this.get(input.source_id), summary: null };
    }
    const summary = await this.sync(input.source_id, { force: input.force });
    return { source: this.get(input.source_id), summary };
  }

  /** Pause: stop watching, and stop a running sync after its current batch (it resumes on resume). */
  async setPaused(id: string, paused: boolean): Promise<Source> {
    const cfg = this.registry.get(id);
    if (cfg.paused !== paused) this.registry.patch(id, { paused });
    if (paused) {
      await this.stopWatcher(id);
      const job = this.current.get(id);
      if (job) job.stop = 'pause';
    } else if (this.watching) {
      await this.startWatcher(this.registry.get(id));
      this.spawn(this.sync(id, {}, true));
    }
    return this.get(id);
  }

  async remove(input: ParsedInput<'removeSource'>): Promise<{ source_id: string; removed: boolean; documents_deleted: number }> {
    const cfg = this.registry.get(input.source_id);
    await this.stopWatcher(cfg.source_id);
    const job = this.current.get(cfg.source_id);
    if (job) job.stop = 'cancel';
    this.registry.remove(cfg.source_id);
    return this.mutex.run(cfg.source_id, async () => {
      for (const j of this.rt.jobs.unfinished({ source_id: cfg.source_id })) await this.rt.jobs.cancel(j.id);
      let deleted = 0;
      if (!input.keep_documents && this.rt.ctx.store.registry.find(cfg.kb_id)) {
        const prefix = `${cfg.source_id}/`;
        const ids = [...(await this.rt.ctx.store.docs.docHashes(cfg.kb_id, (d) => d.startsWith(prefix))).keys()];
        await deleteDocs(this.rt.ctx, cfg.kb_id, ids);
        deleted = ids.length;
      }
      this.rt.health.dropSource(cfg.kb_id, cfg.source_id);
      return { source_id: cfg.source_id, removed: true, documents_deleted: deleted };
    });
  }

  /** Forget the sources of a KB that is being deleted (its documents go with the KB). */
  async dropKb(kbId: string): Promise<void> {
    for (const cfg of this.registry.list(kbId)) {
      await this.stopWatcher(cfg.source_id);
      const job = this.current.get(cfg.source_id);
      if (job) job.stop = 'cancel';
      this.registry.remove(cfg.source_id);
      await this.mutex.run(cfg.source_id, async () => undefined);
    }
    await this.rt.jobs.dropKb(kbId);
    this.rt.health.dropKb(kbId);
  }

  /**
   * Long-running processes: watch every source that is not paused, rescan them, and resume interrupted jobs, in
   * the background (resolves once the watchers are up).
   */
  start(): Promise<void> {
    this.startup ??= this.startAll();
    return this.startup;
  }

  private async startAll(): Promise<void> {
    this.watching = true;
    for (const cfg of this.registry.list()) {
      if (this.closed) return;
      if (cfg.paused || !this.rt.ctx.store.registry.find(cfg.kb_id)) continue;
      await this.startWatcher(cfg);
      this.spawn(this.sync(cfg.source_id, {}, true));
    }
    this.spawn(resumeFileJobs(this.rt));
  }

  private async startWatcher(cfg: SourceConfig): Promise<void> {
    if (this.closed || this.watchers.has(cfg.source_id)) return;
    const watcher = new SourceWatcher({
      root: cfg.path,
      filter: sourceFilter(cfg),
      recursive: cfg.recursive,
      followLinks: cfg.follow_links,
      onChanges: (paths) => {
        if (!this.closed && this.registry.find(cfg.source_id)) this.spawn(this.sync(cfg.source_id, { paths }, true));
      },
      onError: (err) => this.registry.patch(cfg.source_id, { last_error: `watching failed: ${String(err)}` }),
    });
    this.watchers.set(cfg.source_id, watcher);
    try {
      await watcher.start();
      if (this.closed) await this.stopWatcher(cfg.source_id);
    } catch (err) {
      this.watchers.delete(cfg.source_id);
      this.registry.patch(cfg.source_id, { last_error: `cannot watch ${cfg.path}: ${String(err)}` });
    }
  }

  private async stopWatcher(id: string): Promise<void> {
    const w = this.watchers.get(id);
    this.watchers.delete(id);
    await w?.close();
  }

  /** Run in the background; failures are recorded on the source (last_error), not thrown. */
  private spawn(p: Promise<unknown>): void {
    const tracked = p.catch(() => undefined).finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }

  /** Stop watching; running syncs stop after their current batch and resume at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    await this.startup;
    await Promise.all([...this.watchers.keys()].map((id) => this.stopWatcher(id)));
    for (const job of this.current.values()) if (!job.stop) job.stop = 'close';
    await this.rt.jobs.close();
    while (this.background.size) await Promise.all([...this.background]);
  }
}

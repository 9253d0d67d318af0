import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { contract, type MethodName, type RagClient } from '../shared/contract/index.js';
import { RagError } from '../shared/errors.js';
import { activityLogFor } from './activity/activity-log.js';
import { keyStoreFor } from './auth/key-store.js';
import { dataPaths } from './config/data-dir.js';
import { acquireLock, type HeldLock } from './config/lock.js';
import { createModelManager } from './embed/model-manager.js';
import { HealthStore, healthReport } from './health/health-store.js';
import { JobManager } from './jobs/job-manager.js';
import type { ModelManager } from './embed/types.js';
import { listParsers } from './parse/registry.js';
import { search, type SearchOptions } from './search/search-service.js';
import { highlightTerms } from './text/highlight-terms.js';
import { DEFAULT_OPTIONS, type CoreContext, type CoreOptions, type IngestEvent } from './services/context.js';
import * as docs from './services/document-service.js';
import { documentFile } from './services/document-file.js';
import { backfillVectors, flushIndexing } from './services/indexing.js';
import * as kbs from './services/kb-service.js';
import { cancelModelChange, changeKbModel, modelChangeStatus, resumeModelChanges, stopModelChanges } from './services/model-change.js';
import { preview } from './services/preview-service.js';
import { diagnostic, stats } from './services/system-service.js';
import { parseInput } from './services/validate.js';
import { SourceManager } from './sources/source-manager.js';
import { Store } from './store/store.js';

export interface OpenCoreOptions extends Partial<CoreOptions> {
  dataDir: string;
  /** Take the data dir's writer lock (default true). */
  lock?: boolean;
  /** Use this model manager instead of the worker-backed default (tests may share one). */
  models?: ModelManager;
  /** Explicit path of the embedding worker script (bundled builds). */
  workerPath?: string;
  /**
   * Watch folder sources, rescan them and resume interrupted ingestion jobs in the background (long-running
   * processes: serve, the desktop app). Off for one-shot CLI commands.
   */
  watchSources?: boolean;
}

/** Who is calling: adapters (MCP keys, HTTP) narrow what a caller may read and write. */
export interface CallerScope {
  read?: ReadonlySet<string>;
  write?: ReadonlySet<string>;
  admin?: boolean;
}

/**
 * The engine: one per data dir. Adapters (CLI, MCP, HTTP, IPC) call `client` (the contract, validated on the
 * way in and out) or the typed services directly.
 */
export class Core {
  readonly client: RagClient;
  /** Persisted ingestion jobs (see jobs/). */
  readonly jobs: JobManager;
  /** Per-file ingestion records: the health report, and what folder syncs compare against. */
  readonly health: HealthStore;
  /** Folder sources: sync, watch, pause. */
  readonly sources: SourceManager;

  private constructor(
    readonly ctx: CoreContext,
    readonly lock: HeldLock | undefined,
    private readonly ownsModels: boolean,
  ) {
    this.jobs = new JobManager(path.join(ctx.options.dataDir, 'jobs'));
    this.health = new HealthStore(ctx.options.dataDir);
    this.sources = new SourceManager({ ctx, jobs: this.jobs, health: this.health }, path.join(ctx.options.dataDir, 'sources.json'));
    this.client = this.clientFor({ admin: true });
  }

  static async open(options: OpenCoreOptions): Promise<Core> {
    const paths = dataPaths(options.dataDir);
    fs.mkdirSync(paths.root, { recursive: true });
    const lock = options.lock === false ? undefined : acquireLock(paths.lock);
    try {
      const store = await Store.open(paths.lance, paths.kbs);
      const opts: CoreOptions = { ...DEFAULT_OPTIONS, ...stripUndefined(options), dataDir: paths.root };
      const models =
        options.models ??
        createModelManager({
          dataDir: paths.root,
          allowDownload: opts.allowDownload,
          ...(options.workerPath ? { workerPath: options.workerPath } : {}),
        });
      const ctx: CoreContext = { store, models, options: opts, events: new EventEmitter<{ ingest: [IngestEvent] }>() };
      const core = new Core(ctx, lock, !options.models);
      if (options.watchSources) void core.sources.start();
      return core;
    } catch (err) {
      lock?.release();
      throw err;
    }
  }

  get dataDir(): string {
    return this.ctx.options.dataDir;
  }

  search(input: Parameters<RagClient['search']>[0], options?: SearchOptions) {
    return search(this.ctx, input, options);
  }

  /** The file on this machine a document came from (the desktop app opens it with the OS). */
  documentFile(kbId: string, docId: string): Promise<string> {
    return documentFile(this.ctx, this.sources.list(kbId), kbId, docId);
  }

  /**
   * Start loading every KB's embedding model in the background, fill in vectors missing from earlier writes,
   * and resume interrupted model changes.
   */
  warmUp(): void {
    const models = new Set(
      this.ctx.store.registry
        .list()
        .filter((kb) => kb.enabled)
        .map((kb) => kb.embedding_model),
    );
    for (const model of models) {
      this.ctx.models.peekEmbedder(model);
      void this.ctx.models
        .getEmbedder(model, { allowDownload: this.ctx.options.allowDownload })
        .then(async (embedder) => {
          for (const kb of this.ctx.store.registry.list().filter((k) => k.embedding_model === model))
            await backfillVectors(this.ctx, kb.kb_id, embedder);
        })
        .catch(() => undefined);
    }
    // Model changes a crash or quit interrupted carry on in the background.
    resumeModelChanges(this.ctx).catch((err: unknown) => process.stderr.write(`ragdesk: resuming model changes failed: ${String(err)}\n`));
  }

  /** A contract client whose calls are limited to what `scope` allows (used by MCP/HTTP with API keys). */
  clientFor(scope: CallerScope): RagClient {
    const handlers = this.handlers(scope);
    const client = {} as Record<string, (input: unknown) => Promise<unknown>>;
    for (const name of Object.keys(contract) as MethodName[]) {
      const spec = contract[name];
      client[name] = async (raw: unknown) => {
        const input = parseInput(spec.input, raw ?? {});
        if (spec.kind === 'admin' && !scope.admin) throw new RagError('permission_denied', `${name} needs the owner's rights`);
        if (!scope.admin) checkKbAccess(scope, spec.kind, input);
        const output = await handlers[name](input as never);
        return spec.output.parse(output);
      };
    }
    return client as unknown as RagClient;
  }

  private handlers(scope: CallerScope): { [M in MethodName]: (input: never) => Promise<unknown> } {
    const ctx = this.ctx;
    const readable = scope.admin ? undefined : scope.read;
    type I<M extends MethodName> = Parameters<RagClient[M]>[0];
    return {
      listKbs: () => kbs.listKbs(ctx, readable),
      getKb: (i: I<'getKb'>) => kbs.summarizeKb(ctx, ctx.store.registry.get(i.kb_id)),
      createKb: (i: I<'createKb'>) => kbs.createKb(ctx, i),
      updateKb: (i: I<'updateKb'>) => kbs.updateKb(ctx, i),
      deleteKb: async (i: I<'deleteKb'>) => {
        ctx.store.registry.get(i.kb_id);
        await this.sources.dropKb(i.kb_id);
        return kbs.deleteKb(ctx, i.kb_id);
      },
      addDocument: (i: I<'addDocument'>) => docs.addDocument(ctx, i),
      addFile: (i: I<'addFile'>) => docs.addFile(ctx, i),
      uploadFile: (i: I<'uploadFile'>) => docs.uploadFile(ctx, i),
      addDocumentsBatch: (i: I<'addDocumentsBatch'>) => docs.addDocumentsBatch(ctx, i),
      getDocument: (i: I<'getDocument'>) => docs.getDocument(ctx, i.kb_id, i.doc_id),
      listDocuments: (i: I<'listDocuments'>) => docs.listDocuments(ctx, i),
      deleteDocument: (i: I<'deleteDocument'>) => docs.deleteDocument(ctx, i.kb_id, i.doc_id),
      listChunks: (i: I<'listChunks'>) => docs.listChunks(ctx, i),
      preview: (i: I<'preview'>) => preview(ctx, i),
      search: (i: I<'search'>) => search(ctx, i, readable ? { allowed: readable } : {}),
      highlightTerms: async (i: I<'highlightTerms'>) => highlightTerms(i.query),
      listParsers: async () => listParsers(),
      listModelPresets: async () => ctx.models.presets(),
      modelStatus: async () => ctx.models.status(),
      loadModel: async (i: I<'loadModel'>) => {
        const allowDownload = i.allow_download ?? true;
        if (i.kind === 'rerank') await ctx.models.getReranker(i.model, { allowDownload });
        else await ctx.models.getEmbedder(i.model, { allowDownload });
        const status = ctx.models.status().find((s) => s.model === i.model && s.kind === (i.kind ?? 'embedding'));
        if (!status) throw new RagError('internal', `no status for model ${i.model}`);
        return status;
      },
      stats: () => stats(ctx, readable),
      diagnostic: () => diagnostic(ctx, readable),
      createKey: async (i: I<'createKey'>) => keyStoreFor(dataPaths(ctx.options.dataDir).keys).create(i),
      listKeys: async () => keyStoreFor(dataPaths(ctx.options.dataDir).keys).list(),
      revokeKey: async (i: I<'revokeKey'>) => keyStoreFor(dataPaths(ctx.options.dataDir).keys).revoke(i.key),
      listActivity: async (i: I<'listActivity'>) => activityLogFor(dataPaths(ctx.options.dataDir).activity).list(i),
      changeKbModel: (i: I<'changeKbModel'>) => changeKbModel(ctx, i),
      modelChangeStatus: async (i: I<'modelChangeStatus'>) => modelChangeStatus(ctx, i.kb_id),
      cancelModelChange: (i: I<'cancelModelChange'>) => cancelModelChange(ctx, i.kb_id),
      addSource: (i: I<'addSource'>) => this.sources.add(i),
      listSources: async (i: I<'listSources'>) => this.sources.list(i.kb_id, readable),
      removeSource: (i: I<'removeSource'>) => this.sources.remove(i),
      syncSource: (i: I<'syncSource'>) => this.sources.syncOp(i),
      pauseSource: (i: I<'pauseSource'>) => this.sources.setPaused(i.source_id, true),
      resumeSource: (i: I<'resumeSource'>) => this.sources.setPaused(i.source_id, false),
      listJobs: async (i: I<'listJobs'>) => this.jobs.list(i, readable),
      cancelJob: (i: I<'cancelJob'>) => this.jobs.cancel(i.job_id),
      healthReport: (i: I<'healthReport'>) => healthReport(ctx, this.health, i),
    } as { [M in MethodName]: (input: never) => Promise<unknown> };
  }

  /** Finish index upkeep, stop the model worker and release the lock. */
  async close(): Promise<void> {
    await this.sources.close();
    await stopModelChanges(this.ctx);
    await flushIndexing(this.ctx);
    await this.ctx.store.writes.idle();
    if (this.ownsModels) await this.ctx.models.dispose();
    this.ctx.store.close();
    this.lock?.release();
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A KB the caller may not read is reported as not found: a key never learns that a KB exists. */
function checkKbAccess(scope: CallerScope, kind: 'read' | 'write' | 'admin', input: unknown): void {
  const ids = new Set<string>();
  if (input && typeof input === 'object') {
    const o = input as { kb_id?: unknown; kb_ids?: unknown };
    if (typeof o.kb_id === 'string') ids.add(o.kb_id);
    if (Array.isArray(o.kb_ids)) for (const id of o.kb_ids) if (typeof id === 'string') ids.add(id);
  }
  for (const id of ids) {
    if (!scope.read?.has(id) && !scope.write?.has(id))
      throw new RagError('kb_not_found', `knowledge base "${id}" not found`, { details: { kb_id: id } });
    if (kind === 'write' && !scope.write?.has(id)) throw new RagError('permission_denied', `this key may not write to "${id}"`);
    if (kind === 'read' && !scope.read?.has(id)) throw new RagError('permission_denied', `this key may not read "${id}"`);
  }
}

import { EventEmitter } from 'node:events';
import path from 'node:path';
import { contract, isFullTextOnly, type Contract, type RagClient } from '../shared/contract/index.js';
import { OWNER_SCOPE, scopeOf, type CallerScope, type Principal } from './auth/scope.js';
import { dataPaths } from './config/data-dir.js';
import { acquireLock, type HeldLock } from './config/lock.js';
import { makeDataDirPrivate } from './config/private-dir.js';
import { Dispatcher } from './dispatch/dispatcher.js';
import { coreHandlers } from './dispatch/handlers.js';
import { internalErrorMiddleware, stderrInternalLog, type InternalErrorLog } from './dispatch/internal-errors.js';
import { metricsMiddleware, pauseMiddleware } from './dispatch/middleware.js';
import { createModelManager } from './embed/model-manager.js';
import type { ModelManager } from './embed/types.js';
import { HealthStore } from './health/health-store.js';
import { defaultParsePool } from './parse/pool/parse-pool.js';
import { JobManager } from './jobs/job-manager.js';
import { CallMetrics } from './metrics/call-metrics.js';
import { DEFAULT_OPTIONS, type CoreContext, type CoreOptions, type IngestEvent } from './services/context.js';
import { releaseAnalysisWorker } from './services/analysis-pool.js';
import { anyIndexingAhead, flushIndexing } from './services/indexing.js';
import { startHealing, stopHealing } from './services/heal.js';
import { resumeModelChanges, stopModelChanges } from './services/model-change.js';
import { SourceManager } from './sources/source-manager.js';
import { clearAnalyzerCaches } from './text/analyzer.js';
import { Store } from './store/store.js';
import { collectGarbage } from './util/collect-garbage.js';
import { holdNativeHeapTrim, trimNativeHeap } from './util/native-heap-trim.js';
import { PauseGate } from './util/pause-gate.js';

import { limitsFromEnv } from './services/env-limits.js';
import { warmUpSearch } from './services/warm-up.js';
export type { CallerScope } from './auth/scope.js';

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
  /** Count contract operations into these metrics (a server that exists before the core opens). */
  opMetrics?: CallMetrics;
}

/**
 * The engine: one per data dir. Adapters (CLI, MCP, HTTP, IPC) call `client` (the contract, validated on the
 * way in and out) or the typed services directly.
 */
export class Core {
  /** The contract with the owner's rights, through the dispatcher. */
  readonly client: RagClient;
  /** Calls, errors and latency of every contract operation, whatever the door (`/metrics` shows them). */
  readonly opMetrics: CallMetrics;
  private readonly dispatcher: Dispatcher<Contract>;
  /** Persisted ingestion jobs (see jobs/). */
  readonly jobs: JobManager;
  /** Per-file ingestion records: the health report, and what folder syncs compare against. */
  readonly health: HealthStore;
  /** Folder sources: sync, watch, pause. */
  readonly sources: SourceManager;
  /** Where internal errors are logged (callers get a reference only); a server points it at its log. */
  private internalLog: InternalErrorLog = stderrInternalLog;
  /** Stops this engine's hold on the process's C-heap trimmer (util/native-heap-trim.ts). */
  private readonly releaseTrim = holdNativeHeapTrim();

  private constructor(
    readonly ctx: CoreContext,
    readonly lock: HeldLock | undefined,
    private readonly ownsModels: boolean,
    opMetrics: CallMetrics | undefined,
  ) {
    this.opMetrics = opMetrics ?? new CallMetrics('ragdesk_api', 'method', 'Contract operation');
    this.jobs = new JobManager(path.join(ctx.options.dataDir, 'jobs'));
    this.health = new HealthStore(ctx.options.dataDir);
    this.sources = new SourceManager({ ctx, jobs: this.jobs, health: this.health }, path.join(ctx.options.dataDir, 'sources.json'));
    this.dispatcher = new Dispatcher(contract, coreHandlers({ ctx, jobs: this.jobs, health: this.health, sources: this.sources }));
    this.dispatcher.use(metricsMiddleware(this.opMetrics));
    this.dispatcher.use(pauseMiddleware(ctx.pause));
    this.dispatcher.use(internalErrorMiddleware(() => this.internalLog));
    this.client = this.dispatcher.clientFor(OWNER_SCOPE);
  }

  static async open(options: OpenCoreOptions): Promise<Core> {
    // Size limits set in the environment (a bad value is refused before anything is opened).
    const envLimits = limitsFromEnv(process.env);
    const paths = dataPaths(options.dataDir);
    makeDataDirPrivate(paths.root);
    const lock = options.lock === false ? undefined : acquireLock(paths.lock);
    try {
      const store = await Store.open(paths.lance, paths.kbs);
      const opts: CoreOptions = { ...DEFAULT_OPTIONS, ...envLimits, ...stripUndefined(options), dataDir: paths.root };
      const models =
        options.models ??
        createModelManager({
          dataDir: paths.root,
          allowDownload: opts.allowDownload,
          ...(options.workerPath ? { workerPath: options.workerPath } : {}),
        });
      const ctx: CoreContext = {
        store,
        models,
        options: opts,
        events: new EventEmitter<{ ingest: [IngestEvent] }>(),
        pause: new PauseGate(),
      };
      const core = new Core(ctx, lock, !options.models, options.opMetrics);
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

  /**
   * Start loading every KB's embedding model in the background, fill in vectors missing from earlier writes,
   * and resume interrupted model changes.
   */
  warmUp(): void {
    const models = new Set(
      this.ctx.store.registry
        .list()
        .filter((kb) => kb.enabled && !isFullTextOnly(kb.embedding_model))
        .map((kb) => kb.embedding_model),
    );
    // Chunks stored without vectors get them once their model can embed: now, or when it arrives or recovers.
    startHealing(this.ctx).catch((err: unknown) => process.stderr.write(`ragdesk: healing failed to start: ${String(err)}\n`));
    for (const model of models) {
      this.ctx.models.peekEmbedder(model);
      void this.ctx.models.getEmbedder(model, { allowDownload: this.ctx.options.allowDownload }).catch(() => undefined);
    }
    // The search path of every KB (tables, snapshots, index caches, a hybrid query once the model is in) is warmed
    // in the background too, so an agent's first search does not pay for it (the same warm-up `ragdesk mcp` runs).
    void warmUpSearch(this.ctx);
    // Model changes a crash or quit interrupted carry on in the background.
    resumeModelChanges(this.ctx).catch((err: unknown) => process.stderr.write(`ragdesk: resuming model changes failed: ${String(err)}\n`));
  }

  /** The one way into the contract for every adapter: parse once, authorise, middleware, output check. */
  dispatch(method: string, input: unknown, scope: CallerScope): Promise<unknown> {
    return this.dispatcher.dispatch(method, input, scope);
  }

  /** Log internal errors here instead of stderr (callers see `internal` with a reference into this log). */
  setInternalErrorLog(log: InternalErrorLog): void {
    this.internalLog = log;
  }

  /** Where internal errors go now: code outside the dispatcher (MCP tools, the HTTP server, the desktop) logs here. */
  readonly logInternalError: InternalErrorLog = (entry) => this.internalLog(entry);

  /** A typed contract client limited to `scope` (the owner's is `client`). */
  clientFor(scope: CallerScope): RagClient {
    return scope.owner ? this.client : this.dispatcher.clientFor(scope);
  }

  /** The scope of a principal now (keys resolved against the KBs that exist). */
  scopeOf(principal: Principal): CallerScope {
    return scopeOf(principal, () => this.ctx.store.registry.list().map((kb) => kb.kb_id));
  }

  /** Stop the model worker, finish index upkeep and release the lock. */
  async close(): Promise<void> {
    // A paused gate would hold the syncs and backfills being stopped: they stop at their next batch instead.
    this.ctx.pause.setPaused(false);
    await this.sources.close();
    await stopHealing(this.ctx);
    await stopModelChanges(this.ctx);
    // Nothing embeds or parses any more: the workers' heaps, the word caches and the garbage go before the last
    // upkeep (waiting, or started by a job's last poll), which may build a large table's indexes (a CLI's `add` of
    // a 200 MB file or of a folder of 50,000 files).
    if (this.ownsModels) await this.ctx.models.dispose();
    await defaultParsePool().releaseIdle();
    await releaseAnalysisWorker();
    if (anyIndexingAhead(this.ctx)) {
      clearAnalyzerCaches();
      collectGarbage();
      trimNativeHeap();
    }
    await flushIndexing(this.ctx);
    await this.ctx.store.writes.idle();
    await this.ctx.store.pruneSettled();
    this.ctx.store.close();
    this.releaseTrim();
    this.lock?.release();
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

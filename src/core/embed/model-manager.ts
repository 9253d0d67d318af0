import { isFullTextOnly, type ModelPreset, type ModelStatus } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { estimateTokenCounter } from '../chunk/estimate.js';
import type { TokenCounter } from '../chunk/types.js';
import { readImports } from './model-import.js';
import { WorkerEmbedder, type ModelEntry as Entry, type RunIds } from './model-entry.js';
import { packIds } from './passage.js';
import { resolveModelSpec, specKey } from './model-spec.js';
import { DEFAULT_RERANK_PRESET, listPresets, type ModelKind } from './presets.js';
import type { EmbedResult, LoadResult, RerankResult } from './protocol.js';
import { RemoteModels, type RemoteModelsOptions } from './remote/remote-models.js';
import { isRemoteModel, parseRemoteSpec } from './remote/remote-spec.js';
import { TokenCounters } from './token-counter.js';
import type { Embedder, GetModelOptions, ModelManager, ModelProgressEvent, Reranker } from './types.js';
import { missingOnDisk } from './loader.js';
import {
  discardEarlyWorker,
  EmbedWorkerClient,
  embedWorkerInit,
  failureError,
  isWorkerExit,
  type ProgressMessage,
} from './worker-client.js';
import { resolveEmbedWorkerPath } from './worker-path.js';

export interface ModelManagerOptions {
  /** The data directory; models are downloaded into and looked up in `<dataDir>/models`. */
  dataDir: string;
  /** The worker script; default: resolveEmbedWorkerPath(). */
  workerPath?: string;
  /** Texts per worker round trip (default 32). */
  batchSize?: number;
  /** Default for calls that do not say, and for background loads (peek*, reloads): may models be downloaded? Default true. */
  allowDownload?: boolean;
  /** Hub (or mirror) to download from; default `HF_ENDPOINT` when set, else https://huggingface.co/. */
  remoteHost?: string;
  /** Defaults for remote embedders (`ollama:…`, `openai:…` model strings): timeouts, retries, breaker, batch size. */
  remote?: RemoteModelsOptions;
}

export const DEFAULT_BATCH_SIZE = 32;
/** Batches of one embed call queued in the worker at a time (see WorkerModelManager.embed). */
export const BATCHES_IN_FLIGHT = 4;
/** A model that failed to load this recently is not tried by background loads (peek*) or with `skipRecentFailure`. */
const RETRY_AFTER_FAILURE_MS = 30_000;
/** More worker crashes than this within CRASH_WINDOW_MS: stop restarting eagerly (the next request still does). */
const MAX_RESTARTS = 3;
const CRASH_WINDOW_MS = 60_000;

/**
 * ModelManager over one embedding worker thread (embed-worker.ts). Models load once per worker; vectors come
 * back as transferred Float32Array buffers; a worker that dies is restarted and its models reloaded in the
 * background, and a request caught in the crash is retried once on the new worker.
 */
export class WorkerModelManager implements ModelManager {
  private readonly cacheDir: string;
  private readonly batchSize: number;
  private readonly allowDownload: boolean;
  private readonly client: EmbedWorkerClient;
  private readonly entries = new Map<string, Entry>();
  private readonly embedders = new Map<string, WorkerEmbedder>();
  private readonly rerankers = new Map<string, Reranker>();
  private readonly tokenCounters: TokenCounters;
  private readonly listeners = new Set<(event: ModelProgressEvent) => void>();
  private readonly crashes: number[] = [];
  /** Ollama / OpenAI-compatible embedders; they never touch the worker. */
  private readonly remote: RemoteModels;
  private disposed = false;

  constructor(options: ModelManagerOptions) {
    // The worker's cache dir (<data>/models) is where this manager looks for models too.
    const init = embedWorkerInit(options.dataDir, options.remoteHost);
    this.cacheDir = init.cacheDir;
    this.tokenCounters = new TokenCounters(this.cacheDir);
    this.batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE));
    this.allowDownload = options.allowDownload ?? true;
    this.client = new EmbedWorkerClient({
      workerPath: options.workerPath ?? resolveEmbedWorkerPath(),
      init,
      onProgress: (msg) => this.onWorkerProgress(msg),
      onExit: (error) => this.onWorkerExit(error),
    });
    this.remote = new RemoteModels(options.remote ?? {}, (event) => this.emit(event));
  }

  /** `<dataDir>/models`. */
  get modelsDir(): string {
    return this.cacheDir;
  }

  presets(): ModelPreset[] {
    return listPresets();
  }

  status(): ModelStatus[] {
    const imports = readImports(this.cacheDir);
    const withImport = (e: Entry): ModelStatus => {
      const imported = e.spec.source === 'hub' ? imports[e.spec.resolved] : undefined;
      return imported ? { ...e.status, imported_at: imported.imported_at } : { ...e.status };
    };
    return [...[...this.entries.values()].map(withImport), ...this.remote.status()];
  }

  async getEmbedder(model: string, options: GetModelOptions = {}): Promise<Embedder> {
    if (isRemoteModel(model)) return this.remote.getEmbedder(model);
    const entry = this.entryFor(model, 'embedding');
    if (options.skipRecentFailure && !this.isLoaded(entry) && !entry.loading && this.failedRecently(entry)) {
      throw new RagError('model_unavailable', entry.status.error ?? `model ${model} could not be loaded`, {
        details: { state: entry.status.state },
      });
    }
    await this.ensureLoaded(entry, options.allowDownload ?? this.allowDownload);
    return this.embedderFor(model, entry);
  }

  peekEmbedder(model: string): Embedder | undefined {
    if (this.disposed) return undefined;
    if (isRemoteModel(model)) return this.remote.peekEmbedder(model);
    const entry = this.entryFor(model, 'embedding');
    if (this.isLoaded(entry)) return this.embedderFor(model, entry);
    this.loadInBackground(entry);
    return undefined;
  }

  async getReranker(model: string = DEFAULT_RERANK_PRESET, options: GetModelOptions = {}): Promise<Reranker> {
    const entry = this.entryFor(model, 'rerank');
    await this.ensureLoaded(entry, options.allowDownload ?? this.allowDownload);
    return this.rerankerFor(model, entry);
  }

  peekReranker(model: string = DEFAULT_RERANK_PRESET): Reranker | undefined {
    if (this.disposed) return undefined;
    const entry = this.entryFor(model, 'rerank');
    if (this.isLoaded(entry)) return this.rerankerFor(model, entry);
    this.loadInBackground(entry);
    return undefined;
  }

  async getTokenCounter(model: string): Promise<TokenCounter> {
    if (isFullTextOnly(model)) return estimateTokenCounter; // a full-text only KB: no tokenizer to look for
    if (isRemoteModel(model)) {
      parseRemoteSpec(model); // invalid_parameter on bad syntax
      return estimateTokenCounter; // the server's tokenizer is not at hand
    }
    // Not cached: looked for again next time (the model may arrive).
    return (await this.tokenCounters.get(resolveModelSpec(model, 'embedding'))) ?? estimateTokenCounter;
  }

  onProgress(listener: (event: ModelProgressEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.listeners.clear();
    // Their word caches hold up to 200k words each.
    this.tokenCounters.clear();
    this.remote.dispose();
    await Promise.all([this.client.dispose(), discardEarlyWorker()]);
  }

  /** Test hook: the worker dies from an uncaught error, as it would from a crash. */
  simulateWorkerCrash(): void {
    this.client.crash();
  }

  // --- loading -----------------------------------------------------------------------------------

  private entryFor(model: string, kind: ModelKind): Entry {
    if (this.disposed) throw new RagError('model_unavailable', 'the model manager has been disposed');
    const spec = resolveModelSpec(model, kind);
    const key = specKey(spec);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { key, spec, loadedGen: -1, status: { model, resolved: spec.resolved, kind, state: 'missing' } };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private isLoaded(entry: Entry): boolean {
    return this.client.running && entry.loadedGen === this.client.generation;
  }

  private failedRecently(entry: Entry): boolean {
    return entry.lastFailureAt !== undefined && Date.now() - entry.lastFailureAt < RETRY_AFTER_FAILURE_MS;
  }

  private loadInBackground(entry: Entry): void {
    if (entry.loading || this.disposed || this.failedRecently(entry)) return;
    this.ensureLoaded(entry, this.allowDownload).catch(() => undefined); // the outcome is in status()
  }

  private async ensureLoaded(entry: Entry, allowDownload: boolean): Promise<void> {
    // A model that is not on disk and will not be downloaded: the worker would only say so, after starting (a thread
    // and its modules), and a KB whose model is missing asks at every batch it writes. A load
    // under way (a download another caller allowed) is joined as before.
    const missing = this.isLoaded(entry) || entry.loading ? undefined : missingOnDisk(entry.spec, this.cacheDir, allowDownload);
    if (missing) {
      entry.lastFailureAt = Date.now();
      this.setStatus(entry, { state: 'missing', error: missing.message });
      throw failureError(missing);
    }
    let exitRetries = 0;
    for (;;) {
      const gen = this.client.start();
      if (entry.loadedGen === gen) return;
      const joined = entry.loading?.gen === gen ? entry.loading : undefined;
      const attempt = joined ?? this.startLoad(entry, gen, allowDownload);
      try {
        await attempt.promise;
        return;
      } catch (err) {
        if (entry.loading === attempt) entry.loading = undefined;
        // The worker died under the load: once more on the new worker.
        if (isWorkerExit(err) && !this.disposed && exitRetries++ < 1) continue;
        // Someone else's load that could not download does not answer a caller that may download.
        if (joined && allowDownload && !joined.allowDownload) continue;
        throw err;
      }
    }
  }

  private startLoad(entry: Entry, gen: number, allowDownload: boolean): NonNullable<Entry['loading']> {
    const attempt = { gen, allowDownload, promise: this.load(entry, gen, allowDownload) };
    entry.loading = attempt;
    attempt.promise.then(
      () => {
        if (entry.loading === attempt) entry.loading = undefined;
      },
      () => {
        if (entry.loading === attempt) entry.loading = undefined;
      },
    );
    return attempt;
  }

  private async load(entry: Entry, gen: number, allowDownload: boolean): Promise<void> {
    this.setStatus(entry, { state: 'loading' });
    try {
      const result = await this.client.request<LoadResult>({ type: 'load', key: entry.key, spec: entry.spec, allowDownload });
      entry.loadedGen = gen;
      entry.lastFailureAt = undefined;
      if (result.dim !== undefined) entry.dim = result.dim;
      entry.takesIds = result.ids === true;
      this.setStatus(entry, { state: 'loaded' });
    } catch (err) {
      const rag = err instanceof RagError ? err : new RagError('model_unavailable', String(err), { cause: err });
      const state = rag.details?.state === 'missing' ? 'missing' : 'error';
      entry.lastFailureAt = Date.now();
      this.setStatus(entry, { state, error: rag.message });
      throw rag;
    }
  }

  private setStatus(entry: Entry, patch: Partial<ModelStatus>): void {
    const { model, resolved, kind } = entry.status;
    entry.status = { model, resolved, kind, ...(entry.dim !== undefined ? { dim: entry.dim } : {}), state: 'missing', ...patch };
    const { state, progress } = entry.status;
    const file = (patch as { file?: string }).file;
    this.emit({ model, kind, state, ...(progress !== undefined ? { progress } : {}), ...(file ? { file } : {}) });
  }

  private emit(event: ModelProgressEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        process.stderr.write(`ragdesk: model progress listener failed: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
  }

  private onWorkerProgress(msg: ProgressMessage): void {
    const entry = this.entries.get(msg.key);
    if (!entry || entry.status.state === 'loaded') return;
    const same = entry.status.state === msg.state && entry.status.progress === msg.progress && !msg.file;
    if (same) return;
    const patch: Partial<ModelStatus> & { file?: string } = { state: msg.state };
    if (msg.progress !== undefined) patch.progress = msg.progress;
    if (msg.file) patch.file = msg.file;
    this.setStatus(entry, patch);
  }

  private onWorkerExit(error: RagError): void {
    const now = Date.now();
    this.crashes.push(now);
    while (this.crashes.length && now - this.crashes[0]! > CRASH_WINDOW_MS) this.crashes.shift();
    const wasLoaded = [...this.entries.values()].filter((e) => e.loadedGen !== -1);
    for (const e of wasLoaded) {
      e.loadedGen = -1;
      this.setStatus(e, { state: 'error', error: error.message });
    }
    if (this.disposed || this.crashes.length > MAX_RESTARTS) return;
    process.stderr.write(`ragdesk: ${error.message}; restarting it\n`);
    // Reload what was loaded; the files are on disk now, so never download here.
    for (const e of wasLoaded) this.ensureLoaded(e, false).catch(() => undefined);
  }

  // --- compute -----------------------------------------------------------------------------------

  private embedderFor(model: string, entry: Entry): WorkerEmbedder {
    let embedder = this.embedders.get(model);
    if (!embedder) {
      embedder = new WorkerEmbedder(model, entry, (e, texts, urgent, ids) => this.embed(e, texts, urgent, ids));
      this.embedders.set(model, embedder);
    }
    return embedder;
  }

  private rerankerFor(model: string, entry: Entry): Reranker {
    let reranker = this.rerankers.get(model);
    if (!reranker) {
      reranker = { model, score: (query, passages) => this.rerank(entry, query, passages) };
      this.rerankers.set(model, reranker);
    }
    return reranker;
  }

  /** Run `fn` with the model loaded in the current worker; once more on a new worker if the old one died. */
  private async withModel<T>(entry: Entry, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.ensureLoaded(entry, false);
      try {
        return await fn();
      } catch (err) {
        if (attempt === 0 && isWorkerExit(err) && !this.disposed) continue;
        throw err;
      }
    }
  }

  /**
   * Embed in batches of `batchSize`, BATCHES_IN_FLIGHT of them queued in the worker at a time: the worker goes on
   * to the next batch while this thread is busy (chunking, writing) when an answer arrives. One at a time, the
   * worker sat idle for a third of an ingest (docs/benchmarks.md). `urgent`: a search's query (see compute-queue.ts).
   * `ids`: passages' token ids from the chunker; those passages' texts are not sent (the worker reads the ids).
   */
  private async embed(entry: Entry, texts: string[], urgent = false, ids?: RunIds): Promise<Float32Array[]> {
    const batches = Math.ceil(texts.length / this.batchSize);
    const results: EmbedResult[] = new Array<EmbedResult>(batches);
    let next = 0;
    let failed = false;
    const lane = async (): Promise<void> => {
      while (next < batches && !failed) {
        const b = next++;
        const from = b * this.batchSize;
        const to = Math.min(texts.length, from + this.batchSize);
        const batch = texts.slice(from, to);
        // Copied, not transferred: a request is sent again to a restarted worker.
        const given = ids ? packIds(ids.ids.parts, from, to, ids.prefix) : undefined;
        const withIds = given && { texts: textsWithoutIds(batch, given), ids: given };
        try {
          results[b] = await this.withModel(entry, () =>
            // A model reloaded meanwhile by a worker that does not take ids gets the texts.
            this.client.request<EmbedResult>({
              type: 'embed',
              key: entry.key,
              ...(withIds && entry.takesIds ? withIds : { texts: batch }),
              ...(urgent ? { urgent } : {}),
            }),
          );
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCHES_IN_FLIGHT, batches) }, lane));
    const out: Float32Array[] = [];
    for (const { buffer, count, dim } of results) {
      // Views over the one transferred buffer per batch: no copies.
      for (let i = 0; i < count; i++) out.push(new Float32Array(buffer, i * dim * 4, dim));
    }
    return out;
  }

  private async rerank(entry: Entry, query: string, passages: string[]): Promise<number[]> {
    if (passages.length === 0) return [];
    const result = await this.withModel(entry, () =>
      this.client.request<RerankResult>({ type: 'rerank', key: entry.key, query, passages, batchSize: this.batchSize }),
    );
    return result.scores;
  }
}

/** The ModelManager for a data directory (worker thread, `<dataDir>/models`). */
export function createModelManager(options: ModelManagerOptions): WorkerModelManager {
  return new WorkerModelManager(options);
}

/** A batch's texts for the worker: empty where the passage's ids are given (a loop: see store/arrow-build.ts). */
function textsWithoutIds(batch: string[], given: { lengths: Int32Array }): string[] {
  const out = new Array<string>(batch.length);
  for (let k = 0; k < batch.length; k++) out[k] = given.lengths[k]! >= 0 ? '' : batch[k]!;
  return out;
}

import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { RagError } from '../../shared/errors.js';
import { dataPaths } from '../config/data-dir.js';
import type { WorkerFailure, WorkerInit, WorkerRequest, WorkerResponse } from './protocol.js';
import { workerSpawn } from './worker-path.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type RequestBody = DistributiveOmit<WorkerRequest, 'id'>;
export type ProgressMessage = Extract<WorkerResponse, { type: 'progress' }>;

export interface WorkerClientOptions {
  workerPath: string;
  init: WorkerInit;
  onProgress: (msg: ProgressMessage) => void;
  /** The worker died without being asked to (crash, uncaught error, killed). Not called after dispose(). */
  onExit: (error: RagError, generation: number) => void;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** True for the error a request gets when the worker died under it (safe to retry once on a new worker). */
export function isWorkerExit(err: unknown): boolean {
  return err instanceof RagError && err.details?.worker_exited === true;
}

function spawnWorker(workerPath: string, init: WorkerInit): Worker {
  const spawn = workerSpawn(workerPath);
  return new Worker(spawn.filename, { eval: spawn.eval, workerData: init, execArgv: [] });
}

/** The worker of `<data>/models` (and a download host), as every model manager of that data dir starts it. */
export function embedWorkerInit(dataDir: string, remoteHost = process.env.HF_ENDPOINT): WorkerInit {
  return { cacheDir: dataPaths(path.resolve(dataDir)).models, ...(remoteHost ? { remoteHost } : {}) };
}

/**
 * A worker started before any client (startEmbedWorkerEarly), until the first client with the same script and
 * init adopts it. A one-shot CLI command that will embed starts it before its main thread loads the engine (~0.5 s
 * of module loading), so that the worker's own start and its model's load (potion: ~0.28 s, ~0.5 s while it
 * imported transformers.js) run on another core meanwhile instead of after it.
 */
interface EarlyWorker {
  key: string;
  worker: Worker;
  /** It failed or exited before a client took it: none will. */
  failed: boolean;
}
let early: EarlyWorker | undefined;
let adoptions = 0;

const earlyKey = (workerPath: string, init: WorkerInit): string => JSON.stringify([workerPath, init.cacheDir, init.remoteHost ?? null]);

/** Start the embedding worker for a client yet to come; false when one waits already. Never keeps the process alive. */
export function startEmbedWorkerEarly(workerPath: string, init: WorkerInit): boolean {
  if (early) return false;
  const slot: EarlyWorker = { key: earlyKey(workerPath, init), worker: spawnWorker(workerPath, init), failed: false };
  slot.worker.on('error', () => (slot.failed = true));
  slot.worker.on('exit', () => {
    slot.failed = true;
    if (early === slot) early = undefined;
  });
  slot.worker.unref();
  early = slot;
  return true;
}

/** The worker started early for this script and init, taken out of its slot; one started for others is stopped. */
function adoptEarlyWorker(workerPath: string, init: WorkerInit): Worker | undefined {
  const slot = early;
  if (!slot) return undefined;
  early = undefined;
  if (slot.failed || slot.key !== earlyKey(workerPath, init)) {
    // A failed one is started again by the client, which then sees its error itself.
    void slot.worker.terminate();
    return undefined;
  }
  slot.worker.removeAllListeners('error');
  slot.worker.removeAllListeners('exit');
  adoptions++;
  return slot.worker;
}

/** Stop a worker started early that no client took (the engine closed without embedding). */
export async function discardEarlyWorker(): Promise<void> {
  const slot = early;
  early = undefined;
  if (slot) await slot.worker.terminate();
}

/** Workers started early so far that a client adopted, and whether one waits now (for tests). */
export function earlyWorkerState(): { adopted: number; waiting: boolean } {
  return { adopted: adoptions, waiting: early !== undefined };
}

/**
 * One worker thread at a time, spawned on demand: request/response by id, progress events, and the
 * bookkeeping for a worker that dies. `generation` counts spawns, so callers can tell whether what they loaded
 * is still in the running worker. The worker is unref'd while idle so it never keeps a process alive.
 */
export class EmbedWorkerClient {
  private worker: Worker | undefined;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;
  generation = 0;

  constructor(private readonly options: WorkerClientOptions) {}

  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Spawn the worker if none is running; returns the current generation. */
  start(): number {
    if (this.disposed) throw new RagError('model_unavailable', 'the model manager has been disposed');
    if (this.worker) return this.generation;
    const { workerPath, init } = this.options;
    const worker = adoptEarlyWorker(workerPath, init) ?? spawnWorker(workerPath, init);
    const generation = ++this.generation;
    let lastError: unknown;
    worker.on('message', (msg: WorkerResponse) => this.onMessage(msg));
    worker.on('error', (err) => {
      lastError = err;
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const why = lastError instanceof Error ? `: ${lastError.message}` : '';
      const error = new RagError('model_unavailable', `the embedding worker stopped unexpectedly (exit code ${code}${why})`, {
        details: { worker_exited: true, exit_code: code },
        ...(lastError !== undefined ? { cause: lastError } : {}),
      });
      this.failAll(error);
      if (!this.disposed) this.options.onExit(error, generation);
    });
    worker.unref();
    this.worker = worker;
    return generation;
  }

  /** Send a request to the running worker (spawning it if needed). */
  request<T>(body: RequestBody, transfer: ArrayBuffer[] = []): Promise<T> {
    this.start();
    const worker = this.worker!;
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      if (this.pending.size === 1) worker.ref();
      try {
        worker.postMessage({ ...body, id } as WorkerRequest, transfer);
      } catch (err) {
        this.settle(id);
        reject(err);
      }
    });
  }

  /** Test hook: make the worker die from an uncaught error. */
  crash(): void {
    this.worker?.postMessage({ type: 'crash', id: 0 } satisfies WorkerRequest);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new RagError('model_unavailable', 'the model manager has been disposed'));
    if (worker) await worker.terminate();
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    return p;
  }

  private failAll(error: RagError): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(error);
  }

  private onMessage(msg: WorkerResponse): void {
    if (msg.type === 'progress') {
      this.options.onProgress(msg);
      return;
    }
    if (msg.type !== 'result') return;
    const p = this.settle(msg.id);
    if (!p) return;
    if (msg.ok) p.resolve(msg.value);
    else {
      p.reject(failureError(msg.error));
    }
  }
}

/** A worker's failure as the error its caller gets: the state in the details, the cause as an Error. */
export function failureError(failure: WorkerFailure): RagError {
  const { state, ...envelope } = failure;
  const cause = envelope.details?.cause;
  return new RagError(envelope.code, envelope.message, {
    details: { ...envelope.details, ...(state ? { state } : {}) },
    ...(typeof cause === 'string' ? { cause: new Error(cause) } : {}),
  });
}

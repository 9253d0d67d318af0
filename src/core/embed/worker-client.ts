import { Worker } from 'node:worker_threads';
import { RagError } from '../../shared/errors.js';
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
    const spawn = workerSpawn(workerPath);
    const worker = new Worker(spawn.filename, {
      eval: spawn.eval,
      workerData: init,
      execArgv: [],
    });
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

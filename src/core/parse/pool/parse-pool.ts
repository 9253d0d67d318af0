/**
 * The parse worker pool: untrusted bytes are parsed in worker threads with hard limits, so no file can take the
 * host process down or stall it.
 *
 * API (for parsers today and OCR tomorrow):
 *   const pool = defaultParsePool();                 // or new ParsePool({ size, maxOldGenerationMb, timeoutMs })
 *   const doc = await pool.run('parse', { data, filename, parser }, { signal, onProgress, timeoutMs });
 * - A task is a named handler in the worker (TASK_HANDLERS in parse-worker.ts: `parse`, and what OCR adds), run with
 *   a plain payload (structured-cloned; pass `transfer` to move big buffers) and a context
 *   `{ progress(p), signal }`. `progress({ done, total, message })` reaches `onProgress` and also counts as a
 *   heartbeat: `timeoutMs` is the longest a task may go without reporting progress (so a 100-page OCR job reporting
 *   per page is not cut, while a parser stuck in one regular expression is). `maxTaskMs` caps the whole task.
 * - Limits: each worker runs under `resourceLimits` (old/young generation, stack); a worker that runs out of memory
 *   or time is terminated and replaced, and the task fails with `too_large` naming the limit
 *   (`details.limit`: `parse_memory_mb`, `parse_timeout_ms` or `parse_max_task_ms`). A crash is `parse_failed`.
 * - Cancellation: aborting `signal` sends the task a cancel (its `ctx.signal` aborts), waits `cancelGraceMs` for
 *   it to stop, then terminates the worker. The task rejects with the signal's reason.
 * - Workers start on demand, are unref'd while idle (they never keep a process alive), exit after `idleMs`, and
 *   are replaced once they were given `maxBytesPerWorker` bytes of input (tasks count theirs in `bytes`) or ran
 *   `maxTasksPerWorker` tasks, so what a parser library leaks stays bounded, or right after a task run with
 *   `retire: true` (parseBytes does that for inputs over 4 MB, so a big parse's heap is not resident while the
 *   caller chunks and writes the result). The budget is in bytes because a worker's start costs ~80 ms of CPU and
 *   a fresh heap: replaced every 200 tasks, a folder of 50,000 notes of 1.5 kB started 250 of them (its `add` took
 *   108 s against 64 s now), while what parsers leave behind grows with what they read.
 *   Tasks queue in order when every worker is busy.
 * - Why node:worker_threads and not piscina/tinypool: the same spawn code as the embedding worker runs from the
 *   TypeScript sources (vitest) and from the built bundle; per-task watchdogs that terminate a worker, progress
 *   heartbeats and out-of-memory mapping are what this needs, and those are the parts the libraries leave to you.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { RagError, type ErrorEnvelope } from '../../../shared/errors.js';
import { workerSpawn } from '../../embed/worker-path.js';
import { fileLabel } from '../parse-errors.js';
import type { PoolRequest, PoolResponse, TaskProgress } from './protocol.js';
import { resolveParseWorkerPath } from './worker-path.js';

export type { TaskProgress } from './protocol.js';

export interface ParsePoolOptions {
  /** Worker threads at most. Default: half the CPUs, 1 to 4. */
  size?: number;
  /** V8 old-generation heap per worker, MB. */
  maxOldGenerationMb?: number;
  /** V8 young-generation heap per worker, MB. */
  maxYoungGenerationMb?: number;
  /** Stack per worker, MB (deep recursion then fails as a RangeError inside the task). */
  stackSizeMb?: number;
  /** Longest a task may run without reporting progress. */
  timeoutMs?: number;
  /** Longest a task may run at all. */
  maxTaskMs?: number;
  /** An idle worker exits after this long. */
  idleMs?: number;
  /** A worker is replaced after this many tasks (leaks in libraries stay bounded). */
  maxTasksPerWorker?: number;
  /** A worker is replaced once the tasks it was given counted this many `bytes` of input in all. */
  maxBytesPerWorker?: number;
  /** After a cancel, how long the task may take to stop before its worker is terminated. */
  cancelGraceMs?: number;
  /** The worker script; found next to this module (or the bundle) by default. */
  workerPath?: string;
}

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (p: TaskProgress) => void;
  /** Overrides the pool's `timeoutMs` for this task. */
  timeoutMs?: number;
  /** Overrides the pool's `maxTaskMs` for this task. */
  maxTaskMs?: number;
  transfer?: ArrayBuffer[];
  /** Names the file in limit errors. */
  filename?: string;
  /** The size of the task's input, counted against the worker's `maxBytesPerWorker`. */
  bytes?: number;
  /**
   * Replace the worker once this task is done: its heap grew for a big input and would otherwise stay resident next
   * to the caller's own peak (chunking and writing what was parsed).
   */
  retire?: boolean;
}

const DEFAULTS = {
  maxOldGenerationMb: 320,
  maxYoungGenerationMb: 32,
  stackSizeMb: 4,
  timeoutMs: 60_000,
  maxTaskMs: 10 * 60_000,
  idleMs: 30_000,
  maxTasksPerWorker: 10_000,
  maxBytesPerWorker: 64 * 1024 * 1024,
  cancelGraceMs: 2_000,
};

interface Task {
  id: number;
  kind: string;
  payload: unknown;
  options: RunOptions;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  started?: number;
}

interface Slot {
  worker: Worker;
  /** The worker has loaded its modules; limits start counting only then (loading from sources is slow). */
  ready: boolean;
  task: Task | undefined;
  tasksRun: number;
  /** Input bytes of the tasks it was given (RunOptions.bytes). */
  bytesRun: number;
  idleTimer?: NodeJS.Timeout;
  watchdog?: NodeJS.Timeout;
  hardStop?: NodeJS.Timeout;
  /** Why the pool is terminating this worker (so its exit is reported as that, not as a crash). */
  killedFor?: RagError;
  lastError?: unknown;
  retireAfter?: boolean;
}

function envelopeToError(e: ErrorEnvelope): RagError {
  return new RagError(e.code, e.message, e.details ? { details: e.details } : undefined);
}

export class ParsePool {
  private readonly opts: Required<Omit<ParsePoolOptions, 'workerPath'>> & { workerPath?: string };
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: ParsePoolOptions = {}) {
    const cpus = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    this.opts = { size: Math.max(1, Math.min(4, Math.floor(cpus / 2))), ...DEFAULTS, ...options };
  }

  get limits(): { maxOldGenerationMb: number; timeoutMs: number; maxTaskMs: number; size: number } {
    const { maxOldGenerationMb, timeoutMs, maxTaskMs, size } = this.opts;
    return { maxOldGenerationMb, timeoutMs, maxTaskMs, size };
  }

  /** Workers alive now (busy or idle). */
  get workers(): number {
    return this.slots.size;
  }

  run<T>(kind: string, payload: unknown, options: RunOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new RagError('internal', 'the parse pool is closed'));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    return new Promise<T>((resolve, reject) => {
      const task: Task = { id: this.nextId++, kind, payload, options, resolve: resolve as (v: unknown) => void, reject };
      this.queue.push(task);
      options.signal?.addEventListener('abort', () => this.abort(task), { once: true });
      this.pump();
    });
  }

  /**
   * End the workers that have no task now, rather than after `idleMs` (their heaps go with them), and those still
   * starting when no task waits for them; the next task starts a new one. For a caller done with parsing for a
   * while, such as a CLI before its final index builds.
   */
  async releaseIdle(): Promise<void> {
    if (this.queue.length > 0) return;
    const idle = [...this.slots].filter((s) => !s.task && !s.killedFor);
    await Promise.all(
      idle.map((s) => {
        clearTimeout(s.idleTimer);
        s.killedFor = new RagError('internal', 'worker idle');
        return s.worker.terminate();
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const err = new RagError('internal', 'the parse pool is closed');
    for (const t of this.queue.splice(0)) t.reject(err);
    await Promise.all(
      [...this.slots].map((s) => {
        s.killedFor = err;
        return s.worker.terminate();
      }),
    );
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = [...this.slots].find((s) => s.ready && !s.task && !s.killedFor);
      if (slot) {
        this.assign(slot, this.queue.shift()!);
        continue;
      }
      const starting = [...this.slots].filter((s) => !s.ready && !s.killedFor).length;
      if (this.slots.size >= this.opts.size || starting >= this.queue.length) return;
      this.spawn();
    }
  }

  private spawn(): Slot {
    const spawn = workerSpawn(this.opts.workerPath ?? resolveParseWorkerPath());
    const worker = new Worker(spawn.filename, {
      eval: spawn.eval,
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: this.opts.maxOldGenerationMb,
        maxYoungGenerationSizeMb: this.opts.maxYoungGenerationMb,
        stackSizeMb: this.opts.stackSizeMb,
      },
    });
    const slot: Slot = { worker, ready: false, task: undefined, tasksRun: 0, bytesRun: 0 };
    worker.on('message', (msg: PoolResponse) => this.onMessage(slot, msg));
    worker.on('error', (err) => {
      slot.lastError = err;
    });
    worker.on('exit', (code) => this.onExit(slot, code));
    // Held while it starts (a task is waiting for it); unref'd once ready and idle.
    this.slots.add(slot);
    return slot;
  }

  private assign(slot: Slot, task: Task): void {
    clearTimeout(slot.idleTimer);
    slot.task = task;
    slot.tasksRun++;
    slot.bytesRun += task.options.bytes ?? 0;
    task.started = Date.now();
    slot.worker.ref();
    this.armWatchdog(slot);
    const maxTaskMs = task.options.maxTaskMs ?? this.opts.maxTaskMs;
    slot.hardStop = setTimeout(() => this.kill(slot, this.limitError(task, 'parse_max_task_ms', maxTaskMs)), maxTaskMs);
    slot.hardStop.unref();
    const msg: PoolRequest = { type: 'run', id: task.id, kind: task.kind, payload: task.payload };
    try {
      slot.worker.postMessage(msg, task.options.transfer ?? []);
    } catch (err) {
      this.finish(slot);
      task.reject(err);
    }
  }

  private armWatchdog(slot: Slot): void {
    const task = slot.task;
    if (!task) return;
    clearTimeout(slot.watchdog);
    const timeoutMs = task.options.timeoutMs ?? this.opts.timeoutMs;
    slot.watchdog = setTimeout(() => this.kill(slot, this.limitError(task, 'parse_timeout_ms', timeoutMs)), timeoutMs);
    slot.watchdog.unref();
  }

  private limitError(task: Task, limit: 'parse_timeout_ms' | 'parse_max_task_ms' | 'parse_memory_mb', max: number): RagError {
    const file = task.options.filename;
    const what =
      limit === 'parse_memory_mb'
        ? `parsing it needs more than the ${max} MB of memory a parser may use`
        : limit === 'parse_timeout_ms'
          ? `parsing it made no progress for ${max / 1000} s`
          : `parsing it took longer than ${max / 1000} s`;
    return new RagError('too_large', `${fileLabel(file)} is refused: ${what} (limit ${limit} = ${max})`, {
      details: { limit, max, ...(file ? { file } : {}) },
    });
  }

  /** Terminates a worker on purpose; its task fails with `why`. */
  private kill(slot: Slot, why: RagError): void {
    if (slot.killedFor) return;
    slot.killedFor = why;
    const task = slot.task;
    this.finish(slot);
    task?.reject(why);
    void slot.worker.terminate();
  }

  private abort(task: Task): void {
    const queued = this.queue.indexOf(task);
    const reason = task.options.signal?.reason as unknown;
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      task.reject(reason);
      return;
    }
    const slot = [...this.slots].find((s) => s.task === task);
    if (!slot) return;
    slot.worker.postMessage({ type: 'cancel', id: task.id } satisfies PoolRequest);
    const grace = setTimeout(() => {
      if (slot.task === task) {
        this.kill(slot, reason instanceof RagError ? reason : new RagError('internal', 'cancelled', { details: { cancelled: true } }));
      }
    }, this.opts.cancelGraceMs);
    grace.unref();
    // The caller hears at once; the worker gets the grace period to stop cleanly.
    task.reject(reason);
    task.resolve = () => undefined;
    task.reject = () => undefined;
  }

  /** The slot's task is over (settled or abandoned): clear timers, unref, maybe retire the worker. */
  private finish(slot: Slot): void {
    slot.retireAfter = slot.task?.options.retire === true;
    clearTimeout(slot.watchdog);
    clearTimeout(slot.hardStop);
    slot.task = undefined;
    if (slot.killedFor) return;
    slot.worker.unref();
    if (slot.tasksRun >= this.opts.maxTasksPerWorker || slot.bytesRun >= this.opts.maxBytesPerWorker || slot.retireAfter) {
      slot.killedFor = new RagError('internal', 'worker retired');
      void slot.worker.terminate();
      return;
    }
    slot.idleTimer = setTimeout(() => {
      if (!slot.task && !slot.killedFor) {
        slot.killedFor = new RagError('internal', 'worker idle');
        void slot.worker.terminate();
      }
    }, this.opts.idleMs);
    slot.idleTimer.unref();
    this.pump();
  }

  private onMessage(slot: Slot, msg: PoolResponse): void {
    if (msg.type === 'ready') {
      slot.ready = true;
      this.pump();
      if (!slot.task) slot.worker.unref();
      return;
    }
    const task = slot.task;
    if (!task || msg.id !== task.id) return;
    if (msg.type === 'progress') {
      this.armWatchdog(slot);
      task.options.onProgress?.(msg.progress);
      return;
    }
    this.finish(slot);
    if (msg.ok) task.resolve(msg.value);
    else task.reject(envelopeToError(msg.error));
  }

  private onExit(slot: Slot, code: number): void {
    this.slots.delete(slot);
    clearTimeout(slot.idleTimer);
    if (!slot.ready && !slot.killedFor) {
      // It died while loading: retrying would only fail again, so the waiting tasks fail now.
      const why = slot.lastError instanceof Error ? `: ${slot.lastError.message}` : '';
      const err = new RagError('internal', `the parse worker could not start (exit code ${code}${why})`);
      for (const t of this.queue.splice(0)) t.reject(err);
      return;
    }
    const task = slot.task;
    if (task) {
      clearTimeout(slot.watchdog);
      clearTimeout(slot.hardStop);
      slot.task = undefined;
      const err = slot.lastError as { code?: string; message?: string } | undefined;
      if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY') task.reject(this.limitError(task, 'parse_memory_mb', this.opts.maxOldGenerationMb));
      else {
        const file = task.options.filename;
        task.reject(
          new RagError('parse_failed', `Could not parse ${fileLabel(file)}: the parser stopped unexpectedly (exit code ${code})`, {
            details: { reason: 'crashed', ...(file ? { file } : {}) },
            ...(err ? { cause: err } : {}),
          }),
        );
      }
    }
    if (!this.closed) this.pump();
  }
}

let shared: ParsePool | undefined;

/** The process-wide pool every parse goes through unless a caller passes its own. */
export function defaultParsePool(): ParsePool {
  shared ??= new ParsePool();
  return shared;
}

/** Replace the process-wide pool (tests, or a composition root with its own limits); the old one is closed. */
export async function setDefaultParsePool(pool: ParsePool | undefined): Promise<void> {
  const old = shared;
  shared = pool;
  if (old && old !== pool) await old.close();
}

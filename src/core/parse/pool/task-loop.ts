/**
 * The worker side of ParsePool (parse-pool.ts): answers the pool's `run` and `cancel` messages with named task
 * handlers, each run with its plain payload and a context `{ progress(p), signal }`, and says `ready` once loaded.
 * Every worker script of a pool (parse-worker.ts, services/analysis-worker.ts) is this loop around its own handlers.
 */
import { parentPort } from 'node:worker_threads';
import { RagError, toErrorEnvelope } from '../../../shared/errors.js';
import type { PoolRequest, PoolResponse, TaskProgress } from './protocol.js';

export interface TaskContext {
  progress(p: TaskProgress): void;
  signal: AbortSignal;
}

export type TaskHandler = (payload: never, ctx: TaskContext) => Promise<unknown>;

/** Serve the pool's tasks on this worker thread with `handlers` (by task kind); `name` names the worker in errors. */
export function serveTasks(name: string, handlers: Record<string, TaskHandler>): void {
  const port = parentPort;
  if (!port) throw new Error(`${name} must run as a worker thread`);
  // stdout carries the MCP protocol in one process mode: nothing from this thread may print there.
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

  const running = new Map<number, AbortController>();
  const post = (msg: PoolResponse): void => port.postMessage(msg);

  async function run(id: number, kind: string, payload: unknown): Promise<void> {
    const controller = new AbortController();
    running.set(id, controller);
    try {
      const handler = handlers[kind];
      if (!handler) throw new RagError('internal', `unknown ${name} task "${kind}"`);
      const ctx: TaskContext = { progress: (progress) => post({ type: 'progress', id, progress }), signal: controller.signal };
      const value = await handler(payload as never, ctx);
      post({ type: 'result', id, ok: true, value });
    } catch (err) {
      post({ type: 'result', id, ok: false, error: toErrorEnvelope(err) });
    } finally {
      running.delete(id);
    }
  }

  port.on('message', (msg: PoolRequest) => {
    if (msg.type === 'run') void run(msg.id, msg.kind, msg.payload);
    else running.get(msg.id)?.abort();
  });
  post({ type: 'ready' });
}

/**
 * The embedding worker's compute lane: one task at a time, in arrival order, except that an urgent task (a
 * search's query, a rerank) goes before every waiting normal one. An ingest keeps several passage batches queued
 * in the worker (model-manager.ts), so a search arriving meanwhile waits for the batch being run, not for the queue.
 */
export class ComputeQueue {
  private readonly urgent: Array<() => void> = [];
  private readonly normal: Array<() => void> = [];
  private busy = false;

  run<T>(fn: () => Promise<T>, urgent = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      (urgent ? this.urgent : this.normal).push(() => {
        let result: Promise<T>;
        try {
          result = fn();
        } catch (err) {
          result = Promise.reject(err);
        }
        void result.then(resolve, reject).finally(() => {
          this.busy = false;
          this.next();
        });
      });
      this.next();
    });
  }

  /** Tasks waiting (not counting the one running). */
  get waiting(): number {
    return this.urgent.length + this.normal.length;
  }

  private next(): void {
    if (this.busy) return;
    const task = this.urgent.shift() ?? this.normal.shift();
    if (!task) return;
    this.busy = true;
    task();
  }
}

import { describe, expect, it } from 'vitest';
import { ComputeQueue } from './compute-queue.js';

/** A task the test finishes by hand, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { task: () => (log.push(name), done.then(() => name)), open };
}

describe('ComputeQueue', () => {
  it('runs one task at a time, in arrival order', async () => {
    const q = new ComputeQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const pa = q.run(a.task);
    const pb = q.run(b.task);
    await Promise.resolve();
    expect(log).toEqual(['a']);
    a.open();
    expect(await pa).toBe('a');
    // The next task starts once the finished one's caller has run (the worker posts a result before going on).
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['a', 'b']);
    b.open();
    expect(await pb).toBe('b');
  });

  it('runs an urgent task before the normal ones waiting, after the one running', async () => {
    const q = new ComputeQueue();
    const log: string[] = [];
    const tasks = ['p1', 'p2', 'p3', 'p4'].map((n) => gate(log, n));
    const query = gate(log, 'query');
    const done = tasks.map((t) => q.run(t.task));
    const urgent = q.run(query.task, true);
    expect(q.waiting).toBe(4);
    tasks[0]!.open();
    await done[0];
    query.open();
    await urgent;
    for (const t of tasks) t.open();
    await Promise.all(done);
    expect(log).toEqual(['p1', 'query', 'p2', 'p3', 'p4']);
  });

  it('goes on after a task that throws or rejects', async () => {
    const q = new ComputeQueue();
    const thrown = q.run(() => {
      throw new Error('sync');
    });
    const rejected = q.run(() => Promise.reject(new Error('async')));
    const after = q.run(() => Promise.resolve(7));
    await expect(thrown).rejects.toThrow('sync');
    await expect(rejected).rejects.toThrow('async');
    expect(await after).toBe(7);
    expect(q.waiting).toBe(0);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { RagError } from '../../../shared/errors.js';
import { parseBytes } from '../registry.js';
import { ParsePool } from './parse-pool.js';
import { parseWorkerCandidates, resolveParseWorkerPath } from './worker-path.js';

async function failure(p: Promise<unknown>): Promise<RagError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RagError);
  return err as RagError;
}

describe('ParsePool', () => {
  const pool = new ParsePool({ size: 1, timeoutMs: 1_500, maxOldGenerationMb: 64, idleMs: 60_000 });
  afterAll(() => pool.close());

  it('parses in a worker and reuses it', async () => {
    const doc = await parseBytes({ data: Buffer.from('# Заголовок\n\nТекст про 海关.\n'), filename: 'a.md' }, { pool });
    expect(doc.parser).toBe('markdown');
    expect(doc.blocks[1]!.heading_path).toEqual(['Заголовок']);
    await parseBytes({ data: Buffer.from('plain'), filename: 'b.txt' }, { pool });
    expect(pool.workers).toBe(1);
  });

  it(
    'terminates a task that makes no progress and names the limit; the next task runs on a fresh worker',
    { timeout: 30_000 },
    async () => {
      const err = await failure(pool.run('selftest:spin', { ms: 20_000 }, { filename: 'stuck.html' }));
      expect(err.code).toBe('too_large');
      expect(err.details).toMatchObject({ limit: 'parse_timeout_ms', max: 1_500, file: 'stuck.html' });
      const doc = await parseBytes({ data: Buffer.from('after'), filename: 'c.txt' }, { pool });
      expect(doc.text).toBe('after');
    },
  );

  it('progress is a heartbeat: a long task that reports keeps running', { timeout: 30_000 }, async () => {
    const seen: number[] = [];
    const steps = await pool.run<number>('selftest:progress', { steps: 6, ms: 500 }, { onProgress: (p) => seen.push(p.done ?? 0) });
    expect(steps).toBe(6);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('maps running out of memory to too_large with the memory limit', { timeout: 60_000 }, async () => {
    const err = await failure(pool.run('selftest:oom', {}, { filename: 'greedy.docx', timeoutMs: 50_000 }));
    expect(err.code).toBe('too_large');
    expect(err.details).toMatchObject({ limit: 'parse_memory_mb', max: 64, file: 'greedy.docx' });
    expect((await parseBytes({ data: Buffer.from('ok'), filename: 'd.txt' }, { pool })).text).toBe('ok');
  });

  it('reports a crashed worker as parse_failed and goes on', { timeout: 30_000 }, async () => {
    const err = await failure(pool.run('selftest:crash', {}, { filename: 'boom.pdf' }));
    expect(err.code).toBe('parse_failed');
    expect(err.details).toMatchObject({ reason: 'crashed', file: 'boom.pdf' });
    expect((await parseBytes({ data: Buffer.from('ok'), filename: 'e.txt' }, { pool })).text).toBe('ok');
  });

  it('cancels a running task through its signal', { timeout: 30_000 }, async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const running = pool.run(
      'selftest:progress',
      { steps: 50, ms: 100 },
      {
        signal: controller.signal,
        onProgress: (p) => {
          progress.push(p.done ?? 0);
          if (p.done === 2) controller.abort(new RagError('internal', 'stop', { details: { cancelled: true } }));
        },
      },
    );
    await expect(running).rejects.toThrow('stop');
    expect(progress).toEqual([1, 2]);
  });

  it('ends its idle workers on request, not a busy one; the next task starts a new worker', { timeout: 30_000 }, async () => {
    const two = new ParsePool({ size: 2, timeoutMs: 5_000, idleMs: 60_000 });
    try {
      await Promise.all([two.run('selftest:spin', { ms: 50 }), two.run('selftest:spin', { ms: 50 })]);
      expect(two.workers).toBe(2);
      const busy = two.run('selftest:spin', { ms: 1_000 });
      await two.releaseIdle();
      expect(two.workers).toBe(1);
      await busy;
      await two.releaseIdle();
      expect(two.workers).toBe(0);
      const doc = await parseBytes({ data: Buffer.from('again'), filename: 'd.txt' }, { pool: two });
      expect(doc.text).toBe('again');
      expect(two.workers).toBe(1);
    } finally {
      await two.close();
    }
  });

  it(
    'replaces a worker after maxTasksPerWorker tasks, or once its tasks counted maxBytesPerWorker bytes',
    { timeout: 30_000 },
    async () => {
      const small = new ParsePool({ size: 1, timeoutMs: 5_000, idleMs: 60_000, maxTasksPerWorker: 3, maxBytesPerWorker: 100 });
      try {
        const thread = (bytes?: number) => small.run<number>('selftest:thread', {}, bytes === undefined ? {} : { bytes });
        const byTasks = [await thread(), await thread(), await thread(), await thread()];
        expect(new Set(byTasks.slice(0, 3)).size).toBe(1);
        expect(byTasks[3]).not.toBe(byTasks[0]);
        // 60 + 60 reach 100: the worker that ran the second is replaced after it; 99 bytes alone do not.
        const byBytes = [await thread(60), await thread(60), await thread(99), await thread(0)];
        expect(byBytes[0]).toBe(byBytes[1]);
        expect(byBytes[2]).not.toBe(byBytes[1]);
        expect(byBytes[3]).toBe(byBytes[2]);
      } finally {
        await small.close();
      }
    },
  );

  it('parseBytes counts its input against the worker budget', { timeout: 30_000 }, async () => {
    const small = new ParsePool({ size: 1, timeoutMs: 5_000, idleMs: 60_000, maxBytesPerWorker: 20 });
    try {
      const thread = () => small.run<number>('selftest:thread', {});
      const first = await thread();
      await parseBytes({ data: Buffer.from('twelve bytes'), filename: 'a.txt' }, { pool: small });
      expect(await thread()).toBe(first);
      await parseBytes({ data: Buffer.from('twelve bytes'), filename: 'b.txt' }, { pool: small });
      expect(await thread()).not.toBe(first);
    } finally {
      await small.close();
    }
  });

  it('queues tasks beyond its size and runs them all', { timeout: 30_000 }, async () => {
    const docs = await Promise.all(
      Array.from({ length: 5 }, (_, i) => parseBytes({ data: Buffer.from(`doc ${i}`), filename: `${i}.txt` }, { pool })),
    );
    expect(docs.map((d) => d.text)).toEqual(['doc 0', 'doc 1', 'doc 2', 'doc 3', 'doc 4']);
  });
});

describe('parse worker path', () => {
  it('looks next to the bundle entry, one level up from a chunk, then at the TypeScript source', () => {
    expect(parseWorkerCandidates('/app/out/main/chunks/x.js')).toEqual([
      '/app/out/main/chunks/parse-worker.js',
      '/app/out/main/parse-worker.js',
      '/app/out/main/chunks/parse-worker.ts',
    ]);
    expect(resolveParseWorkerPath()).toMatch(/parse-worker\.ts$/);
  });
});

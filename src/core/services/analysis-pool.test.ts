import { afterAll, describe, expect, it, vi } from 'vitest';
import { ParsePool } from '../parse/pool/parse-pool.js';
import { resolveParseWorkerPath } from '../parse/pool/worker-path.js';
import { analyzeChunksOffThread, INLINE_MAX_CHUNKS, newAnalysisPool, TASK_MAX_CHUNKS } from './analysis-pool.js';
import { analyzeChunks } from './ingest-rows.js';
import { preparedDoc } from './test-support.js';

/** Chunks in the three languages of the sample KB, each text its own. */
function texts(n: number, tag: string): string[] {
  const lines = [
    'Customs clearance of imported toys needs the CE marking and the declarations.',
    'Таможенное оформление: декларация подаётся до ввоза товаров, пошлины платят в рублях.',
    '退货须在三十天内申请，海关检查可能延误发货。',
  ];
  return Array.from({ length: n }, (_, i) => `${lines[i % 3]} ${tag}${i}`);
}

describe('analyzeChunksOffThread', () => {
  const pool = newAnalysisPool();
  afterAll(() => pool.close());

  it('analyses a batch in the analysis worker, into the strings analyzeChunks makes', async () => {
    const docs = [preparedDoc('ru', 'Таможенное оформление', texts(INLINE_MAX_CHUNKS, 'r')), preparedDoc('zh', '退货政策', texts(7, 'z'))];
    const fts = await analyzeChunksOffThread(docs, pool);
    expect(pool.workers).toBe(1);
    const here = analyzeChunks(docs);
    expect(fts.get(docs[0]!)).toEqual(here.get(docs[0]!));
    expect(fts.get(docs[1]!)).toEqual(here.get(docs[1]!));
    expect(fts.get(docs[0]!)![1]).toContain('деклар');
    expect(fts.get(docs[1]!)![2]).toContain('海关');
  });

  it('a document of more chunks than a task holds is analysed in slices, put back together in order', async () => {
    const docs = [
      preparedDoc('small', 'Первый', texts(5, 's')),
      preparedDoc('big', 'Большой документ', texts(2 * TASK_MAX_CHUNKS + 7, 'b')),
      preparedDoc('after', '之后', texts(9, 'a')),
    ];
    const fts = await analyzeChunksOffThread(docs, pool);
    const here = analyzeChunks(docs);
    for (const doc of docs) expect(fts.get(doc)).toEqual(here.get(doc));
    expect(fts.get(docs[1]!)).toHaveLength(2 * TASK_MAX_CHUNKS + 7);
  });

  it('a batch of a few chunks is analysed on the calling thread', async () => {
    const idle = newAnalysisPool();
    try {
      const doc = preparedDoc('note', 'Note', texts(INLINE_MAX_CHUNKS, 'n'));
      const fts = await analyzeChunksOffThread([doc], idle);
      expect(idle.workers).toBe(0);
      expect(fts.get(doc)).toEqual(analyzeChunks([doc]).get(doc));
    } finally {
      await idle.close();
    }
  });

  it('when the worker cannot analyse, the batch is analysed here and that is said once', async () => {
    // The parse worker has no `analyze` task: each run fails as a broken analysis worker would.
    const broken = new ParsePool({ size: 1, workerPath: resolveParseWorkerPath() });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const docs = [preparedDoc('a', 'A', texts(80, 'a')), preparedDoc('b', 'B', texts(90, 'b'))];
      const first = await analyzeChunksOffThread(docs.slice(0, 1), broken);
      const second = await analyzeChunksOffThread(docs.slice(1), broken);
      expect(first.get(docs[0]!)).toEqual(analyzeChunks(docs).get(docs[0]!));
      expect(second.get(docs[1]!)).toEqual(analyzeChunks(docs).get(docs[1]!));
      const said = stderr.mock.calls.map((c) => String(c[0])).filter((s) => s.includes('full-text analysis runs on the main thread'));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain('unknown parse-worker task "analyze"');
    } finally {
      stderr.mockRestore();
      await broken.close();
    }
  });
});

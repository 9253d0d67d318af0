import { Index } from '@lancedb/lancedb';
import { afterAll, describe, expect, it } from 'vitest';
import { Core } from '../core.js';
import { physicalChunkTable, plainChunkRow } from '../store/chunk-rows.js';
import { fixtureModels, seededVectors, tempDir } from '../test-support.js';
import { flushIndexing } from './indexing.js';
import { warmUpSearch } from './warm-up.js';

/**
 * The search warm-up on a real engine reopened over a data dir, as a server finds it at start: nothing loaded.
 * Servers answer hybrid from full-text while a model loads (waitForModels false), so a hybrid search that runs
 * before the model is ready says so; after the warm-up it must not.
 */

const open: Core[] = [];
afterAll(async () => {
  for (const core of open.reverse()) await core.close();
});

async function reopened(build: (core: Core) => Promise<void>): Promise<Core> {
  const dataDir = tempDir('ragdesk-warm-');
  const first = await Core.open({ dataDir, allowDownload: false });
  await build(first);
  await first.close();
  const core = await Core.open({ dataDir, allowDownload: false, waitForModels: false });
  open.push(core);
  return core;
}

describe('warmUpSearch', () => {
  it('loads each KB’s model and opens its table once: callers share one warm-up, and the first hybrid search is not degraded', async () => {
    const { model } = await fixtureModels();
    const core = await reopened(async (c) => {
      for (const kb_id of ['one', 'two']) {
        await c.client.createKb({ kb_id, embedding_model: model });
        await c.client.addDocument({ kb_id, doc_id: 'port', content: 'Customs duties are paid on imported goods at the port.' });
      }
    });
    expect(core.ctx.models.peekEmbedder(model)).toBeUndefined();
    const warming = warmUpSearch(core.ctx);
    // A search that arrives meanwhile waits on the same promise instead of starting a warm-up of its own.
    expect(warmUpSearch(core.ctx)).toBe(warming);
    await warming;
    expect(core.ctx.models.peekEmbedder(model)).toBeDefined();
    for (const kb_id of ['one', 'two']) {
      const res = await core.client.search({ kb_ids: [kb_id], query: 'customs duties port', mode: 'hybrid', top_k: 1 });
      expect(res.degraded).toBeUndefined();
      expect(res.hits[0]?.doc_id).toBe('port');
    }
  }, 60_000);

  it('resolves when a KB’s model cannot load: that KB’s searches say so themselves, full-text is ready', async () => {
    const core = await reopened(async (c) => {
      await c.client.createKb({ kb_id: 'offline', embedding_model: '/nonexistent/model-folder' });
      await c.client.addDocument({ kb_id: 'offline', doc_id: 'port', content: 'Customs duties are paid on imported goods at the port.' });
    });
    await expect(warmUpSearch(core.ctx)).resolves.toBeUndefined();
    const res = await core.client.search({ kb_ids: ['offline'], query: 'customs duties', mode: 'hybrid', top_k: 1 });
    expect(res.hits[0]?.doc_id).toBe('port');
    expect(res.degraded).toMatch(/full-text only/);
  }, 60_000);

  it('builds a vector index of an older kind (IVF-HNSW-SQ) again, once, in the background; searches answer throughout', async () => {
    const { model } = await fixtureModels();
    const core = await reopened(async (c) => {
      await c.client.createKb({ kb_id: 'old', embedding_model: model });
      await c.client.addDocument({ kb_id: 'old', doc_id: 'port', content: 'Customs duties are paid on imported goods at the port.' });
      // Past ANN_MIN_ROWS vectors, indexed as ragdesk did before 2026-12-03.
      const table = (await c.ctx.store.chunks('old'))!;
      const { unit } = seededVectors(table.dim, 11);
      await table.add(
        Array.from({ length: 6_000 }, (_, i) =>
          plainChunkRow({ chunk_id: `f${i}#0`, doc_id: `f${i}`, chunk_index: 0, text: `filler ${i}`, fts: `filler ${i}`, vector: unit() }),
        ),
      );
      await flushIndexing(c.ctx); // this engine's upkeep, before the index is built behind its back
      const raw = await c.ctx.store.db.openTable(physicalChunkTable(c.ctx.store.registry.get('old')));
      await raw.createIndex('vector', { config: Index.hnswSq({ distanceType: 'cosine', numPartitions: 39 }), replace: true });
      raw.close();
    });
    const table = (await core.ctx.store.chunks('old'))!;
    expect(table.vectorIndexKind).toBe('ivf_hnsw_sq');
    expect(table.vectorIndexOutdated).toBe(true);
    const vectorSearch = () => core.client.search({ kb_ids: ['old'], query: 'customs duties port', mode: 'vector', top_k: 10 });
    expect((await vectorSearch()).hits).toHaveLength(10); // queried with HNSW's parameters (ef)
    await warmUpSearch(core.ctx);
    await flushIndexing(core.ctx);
    expect(table.vectorIndexKind).toBe('ivf_rq');
    expect(table.vectorIndexOutdated).toBe(false);
    expect((await vectorSearch()).hits).toHaveLength(10);
    expect((await core.client.search({ kb_ids: ['old'], query: 'customs duties port', mode: 'hybrid', top_k: 1 })).hits[0]?.doc_id).toBe(
      'port',
    );
  }, 120_000);

  it('gives a KB written before the packed hit column the column, once, in the background; its hits read the same', async () => {
    const { model } = await fixtureModels();
    const core = await reopened(async (c) => {
      await c.client.createKb({ kb_id: 'unpacked', embedding_model: model });
      for (const [doc_id, content] of <Array<[string, string]>>[
        ['port', '# Порт\n\nCustoms duties are paid on imported goods at the "port".'],
        ['tea', '# 茶\n\nTea and customs: the duties on tea are paid at the border.'],
      ])
        await c.client.addDocument({ kb_id: 'unpacked', doc_id, title: `Title "${doc_id}" \\ 海关`, content, metadata: { year: 2020 } });
      await flushIndexing(c.ctx);
      // The table as ragdesk wrote it before 2026-12-03: no packed column.
      const raw = await c.ctx.store.db.openTable(physicalChunkTable(c.ctx.store.registry.get('unpacked')));
      await raw.dropColumns(['hit']);
      raw.close();
    });
    const table = (await core.ctx.store.chunks('unpacked'))!;
    expect(table.hitsUnpacked).toBe(true);
    await core.ctx.models.getEmbedder(model);
    const searches = () =>
      Promise.all(
        (['fts', 'hybrid'] as const).map((mode) =>
          core.client.search({ kb_ids: ['unpacked'], query: 'customs duties tea', mode, top_k: 5, use_rerank: false }),
        ),
      );
    const before = await searches();
    expect(before[0]!.hits.map((h) => h.doc_id).sort()).toEqual(['port', 'tea']);
    await warmUpSearch(core.ctx);
    await flushIndexing(core.ctx);
    expect(table.hitsUnpacked).toBe(false);
    expect(await searches()).toEqual(before);
  }, 60_000);
});

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Core } from '../core.js';
import { maintainIndexes } from '../services/indexing.js';
import { errorCode, FIXTURES, fixtureModels, openTestCore } from '../test-support.js';
import { isLeanRef } from '../store/chunk-rows.js';
import { TableSnapshot } from '../store/snapshot.js';
import { analyzeForIndex } from '../text/analyzer.js';
import { rankKbs } from './search-service.js';

let core: Core;

const DOCS = [
  {
    doc_id: 'ru-customs',
    title: 'Таможня',
    content: 'Таможня проверяет документы. Таможенные платежи уплачиваются до выпуска товаров.',
    metadata: { lang: 'ru', year: 2023, tags: ['customs'] },
  },
  {
    doc_id: 'ru-returns',
    title: 'Возврат',
    content: 'Возврат товара возможен в течение тридцати дней после покупки.',
    metadata: { lang: 'ru', year: 2021, tags: ['returns'] },
  },
  {
    doc_id: 'zh-returns',
    title: '退货政策',
    content: '客户可以在收货后三十天内申请退货，运费由客户承担。',
    metadata: { lang: 'zh', year: 2024, tags: ['returns'] },
  },
  {
    doc_id: 'zh-customs',
    title: '海关申报',
    content: '进口货物必须向海关申报，并缴纳关税。',
    metadata: { lang: 'zh', year: 2022, tags: ['customs'] },
  },
  {
    doc_id: 'en-shipping',
    title: 'Shipping',
    content: 'We ship goods by sea freight; the transit time from Shanghai is thirty days.',
    metadata: { lang: 'en', year: 2024, tags: ['shipping'] },
  },
  {
    doc_id: 'en-heart',
    title: 'Heart health',
    content: 'Cardiovascular disease is a leading cause of death; heart patients need treatment.',
    metadata: { lang: 'en', year: 2020, tags: ['health'] },
  },
];

beforeAll(async () => {
  const { model, reranker } = await fixtureModels();
  core = await openTestCore({ rerankModel: reranker });
  await core.client.createKb({ kb_id: 'mixed', embedding_model: model });
  await core.client.addDocumentsBatch({ kb_id: 'mixed', documents: DOCS });
  await core.client.createKb({ kb_id: 'other', embedding_model: model });
  await core.client.addDocument({
    kb_id: 'other',
    doc_id: 'o1',
    content: 'Customs duties and import taxes for goods.',
    metadata: { priority: 1 },
  });
  await core.client.createKb({ kb_id: 'offline', embedding_model: '/nonexistent/model-folder' });
  await core.client.addDocument({ kb_id: 'offline', doc_id: 'x', content: 'Offline knowledge about customs.' }).catch(() => undefined);
  await core.ctx.models.getEmbedder(model);
  await core.ctx.models.getReranker(reranker);
});
afterAll(async () => core.close());

describe('full-text search in one KB holding three languages', () => {
  it('finds Russian by an inflected form', async () => {
    const res = await core.client.search({ query: 'таможенной', kb_ids: ['mixed'], mode: 'fts' });
    expect(res.hits[0]!.doc_id).toBe('ru-customs');
  });
  it('finds Chinese by a 2-character query', async () => {
    expect((await core.client.search({ query: '退货', kb_ids: ['mixed'], mode: 'fts' })).hits[0]!.doc_id).toBe('zh-returns');
    expect((await core.client.search({ query: '海关', kb_ids: ['mixed'], mode: 'fts' })).hits[0]!.doc_id).toBe('zh-customs');
  });
  it('finds English with stemming', async () => {
    const res = await core.client.search({ query: 'shipped', kb_ids: ['mixed'], mode: 'fts' });
    expect(res).toMatchObject({ mode: 'fts', reranked: false });
    expect(res.hits[0]).toMatchObject({ kb_id: 'mixed', doc_id: 'en-shipping', chunk_index: 0, title: 'Shipping' });
    expect(res.hits[0]!.metadata).toMatchObject({ lang: 'en' });
  });
});

describe('a PDF whose text layer holds CJK radicals (Chromium + Noto Sans CJK SC)', () => {
  it('finds the page by the ideographs or by the radicals, and the hit reads in ideographs', async () => {
    const { model } = await fixtureModels();
    await core.client.createKb({ kb_id: 'radicals', embedding_model: model });
    await core.client.addFile({ kb_id: 'radicals', path: path.join(FIXTURES, 'chinese-radicals.pdf') });
    // pdf.js reads 鹿特丹 as ⿅特丹 (Kangxi), 电子 as 电⼦, 门到门 as ⻔到⻔ and 汽车 as 汽⻋ (the supplement).
    const cases: Array<[query: string, shown: string]> = [
      ['鹿特丹', '鹿特丹'],
      ['电子', '电子'],
      ['门到门', '门到门'],
      ['汽车', '汽车'],
      ['⿅特丹', '鹿特丹'],
      ['⻔到⻔', '门到门'],
    ];
    for (const mode of ['fts', 'hybrid'] as const) {
      for (const [query, shown] of cases) {
        const hit = (await core.client.search({ query, kb_ids: ['radicals'], mode })).hits[0];
        expect(hit?.location.page, `${mode} ${query}`).toBe(2);
        expect(hit!.text, `${mode} ${query}`).toContain(shown);
      }
    }
  });
});

describe('vector and hybrid through the real model loading path', () => {
  it('ranks by meaning with the fixture model', async () => {
    const res = await core.client.search({ query: 'heart disease patients', kb_ids: ['mixed'], mode: 'vector', top_k: 3 });
    expect(res.hits[0]!.doc_id).toBe('en-heart');
    expect(res.hits[0]!.score).toBeGreaterThan(res.hits[2]!.score);
  });
  it('fuses both in hybrid without degradation', async () => {
    // The vector side is read as a fusion list (searched with less effort: ann-params.ts); a vector search's is not.
    const rank = vi.spyOn(TableSnapshot.prototype, 'vectorRank');
    try {
      const res = await core.client.search({ query: 'customs goods', kb_ids: ['mixed'], mode: 'hybrid', top_k: 4 });
      expect(res.degraded).toBeUndefined();
      expect(res.hits.map((h) => h.doc_id)).toContain('en-shipping');
      expect(rank.mock.calls.map((c) => c[3]?.fusion)).toEqual(['alone']);
      await core.client.search({ query: 'customs goods', kb_ids: ['mixed'], mode: 'vector', top_k: 4 });
      expect(rank.mock.calls.map((c) => c[3]?.fusion)).toEqual(['alone', undefined]);
      // KBs searched together are merged by distance before fusion: their lists keep exact distances.
      rank.mockClear();
      await core.client.search({ query: 'customs goods', kb_ids: ['mixed', 'radicals'], mode: 'hybrid', top_k: 4 });
      expect(rank.mock.calls.map((c) => c[3]?.fusion)).toEqual(['merged', 'merged']);
    } finally {
      rank.mockRestore();
    }
  });
  it('reranks with the cross-encoder when asked', async () => {
    const res = await core.client.search({ query: 'heart disease', kb_ids: ['mixed'], mode: 'hybrid', use_rerank: true, top_k: 3 });
    expect(res.reranked).toBe(true);
    expect(res.hits[0]!.doc_id).toBe('en-heart');
  });
  it('reads only top_k hits, not the rerank pool, when the reranker is not there, and says why', async () => {
    const hydrate = vi.spyOn(TableSnapshot.prototype, 'hydrateEach');
    const options = core.ctx.options as { rerankModel?: string };
    const loaded = options.rerankModel;
    try {
      const asked = { query: 'customs goods', kb_ids: ['mixed'], mode: 'hybrid' as const, use_rerank: true, top_k: 2 };
      expect((await core.client.search(asked)).reranked).toBe(true);
      expect(hydrate.mock.calls.map((c) => c[0].length)).toEqual([DOCS.length]); // the pool: every chunk here
      hydrate.mockClear();
      options.rerankModel = path.join(FIXTURES, 'no-such-reranker');
      const res = await core.client.search(asked);
      expect(res).toMatchObject({ reranked: false, degraded: expect.stringMatching(/^not reranked: the reranker is /) });
      expect(res.hits).toHaveLength(2);
      expect(hydrate.mock.calls.map((c) => c[0].length)).toEqual([2]);
    } finally {
      options.rerankModel = loaded;
      hydrate.mockRestore();
    }
  });
  it('degrades hybrid to full-text and refuses vector when the model is unavailable', async () => {
    const hybrid = await core.client.search({ query: 'customs', kb_ids: ['offline'], mode: 'hybrid' });
    expect(hybrid.degraded).toMatch(/full-text/);
    expect(hybrid.hits[0]?.doc_id).toBe('x');
    expect(await errorCode(core.client.search({ query: 'customs', kb_ids: ['offline'], mode: 'vector' }))).toBe('model_unavailable');
  });
});

describe('filters are pushed into the query', () => {
  it('applies every operator as a prefilter', async () => {
    const q = { query: 'returns customs shipping heart 退货 海关 таможня возврат', kb_ids: ['mixed'], mode: 'fts' as const, top_k: 10 };
    const ids = async (filter: Record<string, unknown>) => (await core.client.search({ ...q, filter })).hits.map((h) => h.doc_id).sort();
    expect(await ids({ lang: 'zh' })).toEqual(['zh-customs', 'zh-returns']);
    expect(await ids({ year__gte: 2023 })).toEqual(['en-shipping', 'ru-customs', 'zh-returns']);
    expect(await ids({ year__lt: 2022, lang__ne: 'en' })).toEqual(['ru-returns']);
    expect(await ids({ lang__in: ['en'], year__lte: 2020 })).toEqual(['en-heart']);
    expect(await ids({ lang__nin: ['ru', 'zh'] })).toEqual(['en-heart', 'en-shipping']);
    expect(await ids({ tags__contains: 'returns' })).toEqual(['ru-returns', 'zh-returns']);
    expect(await ids({ title__contains: 'Ship' })).toEqual(['en-shipping']);
    expect(await ids({ doc_id: 'ru-returns' })).toEqual(['ru-returns']);
    expect(await ids({ year__exists: true, year__gt: 2023 })).toEqual(['en-shipping', 'zh-returns']);
  });
  it('prefilters: a filtered query still fills top_k from matching rows', async () => {
    const res = await core.client.search({ query: 'heart', kb_ids: ['mixed'], mode: 'vector', top_k: 2, filter: { lang: 'zh' } });
    expect(res.hits.map((h) => h.doc_id).sort()).toEqual(['zh-customs', 'zh-returns']);
  });
  it('never turns a value into SQL', async () => {
    const res = await core.client.search({ query: 'customs', kb_ids: ['mixed'], mode: 'fts', filter: { source: "x' OR 1=1 --" } });
    expect(res.hits).toEqual([]);
    const res2 = await core.client
      .search({ query: 'customs', kb_ids: ['mixed'], mode: 'fts', filter: { "lang') OR (1=1": 'x' } })
      .catch((e: { code: string }) => e.code);
    expect(res2).toBe('invalid_parameter');
  });
  it('rejects unknown fields and wrong value types', async () => {
    expect(await errorCode(core.client.search({ query: 'x', kb_ids: ['mixed'], filter: { nope: 1 } }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.search({ query: 'x', kb_ids: ['mixed'], filter: { year: 'new' } }))).toBe('invalid_parameter');
  });
});

describe('validation and cross-KB search', () => {
  it('validates query, top_k and KB ids', async () => {
    expect(await errorCode(core.client.search({ query: '  ', kb_ids: ['mixed'] }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.search({ query: 'x', kb_ids: ['mixed'], top_k: 0 }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.search({ query: 'x', kb_ids: ['mixed'], top_k: 51 }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.search({ query: 'x', kb_ids: ['missing'] }))).toBe('kb_not_found');
  });
  it('searches every KB, merges and tags each hit', async () => {
    const res = await core.client.search({ query: 'customs таможня', mode: 'fts', top_k: 10 });
    expect(new Set(res.hits.map((h) => h.kb_id))).toEqual(new Set(['mixed', 'other', 'offline']));
    const scores = res.hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });
  it('a vector search of several KBs is the best of each KB alone, reading top_k rows of each', async () => {
    const limits: number[] = [];
    const original = TableSnapshot.prototype.vectorRank;
    const spy = vi.spyOn(TableSnapshot.prototype, 'vectorRank').mockImplementation(function (this: TableSnapshot, ...args) {
      limits.push(args[1]);
      return original.apply(this, args);
    });
    try {
      const query = 'customs duties for imported goods';
      const both = await core.client.search({ query, kb_ids: ['mixed', 'other'], mode: 'vector', top_k: 3 });
      expect(limits).toEqual([3, 3]);
      const alone = [
        ...(await core.client.search({ query, kb_ids: ['mixed'], mode: 'vector', top_k: 3 })).hits,
        ...(await core.client.search({ query, kb_ids: ['other'], mode: 'vector', top_k: 3 })).hits,
      ].sort((a, b) => b.score - a.score);
      expect(both.hits.map((h) => [h.kb_id, h.doc_id, h.text])).toEqual(alone.slice(0, 3).map((h) => [h.kb_id, h.doc_id, h.text]));
      both.hits.forEach((h, i) => expect(h.score).toBeCloseTo(alone[i]!.score, 6));
    } finally {
      spy.mockRestore();
    }
  });
  it('a filter field known to one KB only narrows the search to it', async () => {
    const res = await core.client.search({ query: 'customs', mode: 'fts', filter: { priority: 1 } });
    expect(res.hits.map((h) => h.kb_id)).toEqual(['other']);
  });
  it('limits a scoped caller to its KBs', async () => {
    const scoped = core.clientFor({ owner: false, read: new Set(['other']), write: new Set() });
    const res = await scoped.search({ query: 'customs', mode: 'fts', top_k: 10 });
    expect(res.hits.every((h) => h.kb_id === 'other')).toBe(true);
  });
});

describe('full-text hits read with the ranking', () => {
  const hitsOf = async (query: string, withRows: boolean) => {
    const kb = core.ctx.store.registry.get('mixed');
    const r = await rankKbs(core.ctx, [{ kb, where: undefined }], query, analyzeForIndex(query), 'fts', 50, 'adaptive', withRows);
    const refs = r.refs.slice(0, 10);
    return { carried: refs.filter((x) => x.row).length, hits: await r.snapshots.get('mixed')!.hydrate(refs) };
  };

  it('are the hits a fetch after ranking gives, on an up-to-date index and with writes not yet folded in', async () => {
    await maintainIndexes(core.ctx, 'mixed', true);
    for (const stage of ['indexed', 'pending']) {
      if (stage === 'pending')
        await core.client.addDocument({ kb_id: 'mixed', doc_id: 'en-customs-late', content: 'Late customs note: goods wait at customs.' });
      for (const q of ['customs goods', 'таможня товаров', '退货', 'heart patients']) {
        const read = await hitsOf(q, true);
        const fetched = await hitsOf(q, false);
        expect(read.hits, `${stage}: ${q}`).toEqual(fetched.hits);
        expect(fetched.carried).toBe(0);
        if (stage === 'indexed') expect(read.carried, `${stage}: ${q}`).toBe(read.hits.length);
      }
    }
    const late = await hitsOf('late customs note', true);
    expect(late.hits[0]?.doc_id).toBe('en-customs-late');
    await core.client.deleteDocument({ kb_id: 'mixed', doc_id: 'en-customs-late' });
  });

  it('hybrid: the full-text list carries its rows in a small table; past hybridListColumnsMaxRows every list knows its rows by row id alone (but rows not indexed yet), the same hits, of one KB or two', async () => {
    const targets = (ids: string[]) => ids.map((id) => ({ kb: core.ctx.store.registry.get(id), where: undefined }));
    const ranked = (q: string, ids: string[]) => rankKbs(core.ctx, targets(ids), q, analyzeForIndex(q), 'hybrid', 100, 'adaptive', true);
    const search = (q: string, ids: string[]) => core.client.search({ kb_ids: ids, query: q, mode: 'hybrid', top_k: 5 });
    const options = core.ctx.options as { hybridListColumnsMaxRows: number };
    const bound = options.hybridListColumnsMaxRows;
    // Lean lists while the full-text index scores exactly (after upkeep), LanceDB's ranking as it is; after a delete
    // and an add, the full-text list is counted: its indexed candidates are still lean, the added rows (not indexed
    // yet) keep their chunk ids. Fusion knows a row by its row id in every list.
    await maintainIndexes(core.ctx, 'mixed', true);
    // Upkeep takes the KB's write lock: held after the writes, the index stays as they left it (a run under load: the
    // upkeep they armed had built it again, exact, before the last query).
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held: Promise<void> | undefined;
    try {
      for (const stage of ['exact', 'counted']) {
        if (stage === 'counted') {
          await core.client.addDocument({ kb_id: 'mixed', doc_id: 'gone', content: 'Customs goods note, removed at once.' });
          await core.client.deleteDocument({ kb_id: 'mixed', doc_id: 'gone' });
          await core.client.addDocument({ kb_id: 'mixed', doc_id: 'pending', content: 'Customs goods pending: not indexed yet.' });
          held = core.ctx.store.writes.run('mixed', () => gate);
        }
        for (const q of ['customs goods', 'таможня товаров', '退货'])
          for (const ids of [['mixed'], ['mixed', 'other']]) {
            const what = `${stage}, ${ids.join('+')}: ${q}`;
            const small = await ranked(q, ids);
            const withRows = await search(q, ids);
            if (ids.length === 1) expect(small.refs.some((r) => r.row)).toBe(true);
            options.hybridListColumnsMaxRows = 0;
            try {
              const large = await ranked(q, ids);
              expect(large.refs.filter((r) => r.row)).toHaveLength(0);
              // Keyed by chunk id: only rows the full-text index does not cover yet (the pending document's).
              expect(
                large.refs.filter((r) => !isLeanRef(r)).map((r) => r.doc_id),
                what,
              ).toEqual(stage === 'counted' && q === 'customs goods' ? ['pending'] : []);
              // A row in both lists is one ranked row (its fused score), not one from each list.
              expect(large.refs).toHaveLength(small.refs.length);
              const hits = (await search(q, ids)).hits;
              expect(hits, what).toEqual(withRows.hits);
              expect(new Set(hits.map((h) => `${h.kb_id}/${h.doc_id}#${h.chunk_index}`)).size).toBe(hits.length);
            } finally {
              options.hybridListColumnsMaxRows = bound;
            }
          }
      }
    } finally {
      release();
      await held;
      await core.client.deleteDocument({ kb_id: 'mixed', doc_id: 'pending' });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import type { ModelProgressEvent } from '../embed/types.js';
import { errorCode, fixtureModels, modelChangeFinished, openTestCore, untilModelChange } from '../test-support.js';

// A full-text only KB (embedding_model `none`): no model is ever asked for, nothing waits for vectors, hybrid is its
// full-text ranking without a note, vector search of it alone is refused, and it can gain a model later.

let core: Core;
let model: string;
const progress: ModelProgressEvent[] = [];

const DOCS = [
  { doc_id: 'ru', content: 'Таможенные платежи уплачиваются до выпуска товаров.' },
  { doc_id: 'zh', content: '客户可以在收货后三十天内申请退货。' },
  { doc_id: 'en', content: 'Heart patients need treatment for cardiovascular disease.' },
];

beforeAll(async () => {
  ({ model } = await fixtureModels());
  // Downloads allowed: a KB whose model is `none` must still never cause an attempt.
  core = await openTestCore({ allowDownload: true });
  core.ctx.models.onProgress((e) => progress.push(e));
  await core.client.createKb({ kb_id: 'plain', embedding_model: 'none' });
  await core.client.createKb({ kb_id: 'vec', embedding_model: model });
  await core.client.addDocument({ kb_id: 'vec', doc_id: 'v1', content: 'Customs duties are paid before the goods are released.' });
});
afterAll(async () => core?.close());

describe('a full-text only KB', () => {
  it('stores documents without asking for a model, and without a warning', async () => {
    const res = await core.client.addDocumentsBatch({ kb_id: 'plain', documents: DOCS });
    expect(res.results.map(({ result: r }) => [r?.status, r?.embedded, r?.warnings ?? []])).toEqual(DOCS.map(() => ['added', false, []]));
    core.warmUp(); // loads the models of the KBs and starts healing: neither may touch `none`
    await new Promise((r) => setTimeout(r, 300));
    expect(core.ctx.models.status().map((s) => s.model)).not.toContain('none');
    expect(progress.filter((e) => e.model === 'none')).toEqual([]);
    expect((await core.client.stats({})).kbs.find((k) => k.kb_id === 'plain')).toMatchObject({
      chunks: 3,
      embedding_dim: null,
      vector_index: 'none',
    });
  });

  it('answers hybrid from full-text with no note, refuses vector alone, and adds nothing to a vector search of several KBs', async () => {
    const hybrid = await core.client.search({ query: 'таможенных платежей', kb_ids: ['plain'], mode: 'hybrid' });
    expect(hybrid.hits[0]?.doc_id).toBe('ru');
    expect(hybrid.degraded).toBeUndefined();
    expect((await core.client.search({ query: '退货', kb_ids: ['plain'], mode: 'fts' })).hits[0]?.doc_id).toBe('zh');
    expect(await errorCode(core.client.search({ query: 'heart', kb_ids: ['plain'], mode: 'vector' }))).toBe('invalid_parameter');
    const both = await core.client.search({ query: 'customs duties', kb_ids: ['plain', 'vec'], mode: 'vector' });
    expect(both.hits.map((h) => h.kb_id)).toEqual(['vec']);
    const all = await core.client.search({ query: 'customs duties heart treatment', mode: 'hybrid' });
    expect(new Set(all.hits.map((h) => h.kb_id))).toEqual(new Set(['plain', 'vec']));
  });

  it('cannot be what a KB with a model changes to, and gains vectors when it changes to a model', async () => {
    expect(await errorCode(core.client.changeKbModel({ kb_id: 'vec', model: 'none' }))).toBe('invalid_parameter');
    await core.client.changeKbModel({ kb_id: 'plain', model });
    expect(await untilModelChange(core, 'plain', modelChangeFinished)).toMatchObject({ state: 'done', chunks_total: 3 });
    expect(core.ctx.store.registry.get('plain')).toMatchObject({ embedding_model: model });
    const vector = await core.client.search({ query: 'heart disease', kb_ids: ['plain'], mode: 'vector' });
    expect(vector.hits).toHaveLength(3);
  });
});

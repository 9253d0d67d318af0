import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { buildFixtureModel } from '../embed/fixture-model.js';
import { createModelManager } from '../embed/model-manager.js';
import type { Embedder, ModelManager } from '../embed/types.js';
import { fixtureModels, modelChangeFinished as finished, openTestCore, tempDir, untilModelChange as until } from '../test-support.js';
import { dropOldTablesNow } from './model-change.js';

// Real LanceDB in temp dirs, real fixture models through the worker: model A (64-d) → model B (32-d).
let modelA: string;
let modelB: string;
let real: ModelManager;

/** The real model manager, with model B's passage embedding held at a gate the test opens and closes. */
function gated() {
  let gate: Promise<void> = Promise.resolve();
  let release: () => void = () => undefined;
  const ctl = {
    calls: 0,
    /** Calls after this many wait at the gate. */
    free: Infinity,
    hold(free = 0) {
      ctl.free = ctl.calls + free;
      gate = new Promise((r) => (release = r));
    },
    open() {
      release();
    },
  };
  const wrap = (e: Embedder): Embedder => ({
    model: e.model,
    resolved: e.resolved,
    dim: e.dim,
    embedQueries: (texts) => e.embedQueries(texts),
    embedPassages: async (texts) => {
      if (++ctl.calls > ctl.free) await gate;
      return e.embedPassages(texts);
    },
  });
  const models = new Proxy(real, {
    get(target, prop) {
      if (prop === 'getEmbedder')
        return async (m: string, o?: object) => ((e) => (m === modelB ? wrap(e) : e))(await target.getEmbedder(m, o));
      if (prop === 'peekEmbedder') return (m: string) => ((e) => (e && m === modelB ? wrap(e) : e))(target.peekEmbedder(m));
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { models, ctl };
}

const TOPICS = [
  'Shipping goods by sea freight takes thirty days from Shanghai',
  'Customs duties and import taxes for goods at the border',
  'Return of goods is possible within thirty days of purchase',
];

function docs(n: number, prefix = 'd') {
  return Array.from({ length: n }, (_, i) => ({ doc_id: `${prefix}${i}`, content: `${TOPICS[i % TOPICS.length]} report ${prefix} ${i}` }));
}

async function seed(core: Core, kbId: string, n: number): Promise<void> {
  await core.client.createKb({ kb_id: kbId, embedding_model: modelA, chunking: { strategy: 'whole' } });
  for (let i = 0; i < n; i += 200) await core.client.addDocumentsBatch({ kb_id: kbId, documents: docs(n).slice(i, i + 200) });
  await core.client.addDocument({
    kb_id: kbId,
    doc_id: 'heart',
    title: 'Heart health',
    content: 'Cardiovascular disease is a leading cause of death; heart patients need treatment.',
  });
}

async function tables(core: Core, kbId: string): Promise<string[]> {
  return core.ctx.store.kbTableNames(kbId);
}

beforeAll(async () => {
  ({ model: modelA } = await fixtureModels());
  modelB = (await buildFixtureModel(path.join(tempDir('ragdesk-fixture-b-'), 'fixture-32'), { dim: 32, seed: 7 })).dir;
  real = createModelManager({ dataDir: tempDir(), allowDownload: false });
}, 120_000);
afterAll(async () => real?.dispose());

describe('changing the embedding model', () => {
  it('re-embeds into a shadow table and swaps model, dimension and table atomically', async () => {
    const core = await openTestCore({ models: real });
    try {
      await seed(core, 'k', 300);
      expect(core.ctx.store.registry.get('k')).toMatchObject({ embedding_model: modelA, embedding_dim: 64 });
      const started = await core.client.changeKbModel({ kb_id: 'k', model: modelB });
      expect(started).toMatchObject({ kb_id: 'k', from_model: modelA, from_dim: 64, to_model: modelB, to_dim: 32 });
      const done = await until(core, 'k', finished);
      expect(done).toMatchObject({ state: 'done', chunks_total: 301, chunks_done: 301 });
      const kb = core.ctx.store.registry.get('k');
      expect(kb).toMatchObject({ embedding_model: modelB, embedding_dim: 32 });
      expect(kb.chunk_table).toMatch(/^chunks__k\.m/);
      const table = (await core.ctx.store.chunks('k'))!;
      expect(table.dim).toBe(32);
      expect(table.ftsIndexReady).toBe(true);
      expect(await table.count('vector IS NOT NULL')).toBe(301);
      const res = await core.client.search({ query: 'heart disease patients', kb_ids: ['k'], mode: 'vector', top_k: 3 });
      expect(res.hits[0]!.doc_id).toBe('heart');
      expect((await core.client.search({ query: 'cardiovascular', kb_ids: ['k'], mode: 'fts' })).hits[0]!.doc_id).toBe('heart');
      // kb_stats shows no migration once it is done; the old table is dropped after its grace period.
      expect((await core.client.stats({})).kbs[0]!.migration).toBeNull();
      await dropOldTablesNow(core.ctx);
      expect(await tables(core, 'k')).toEqual([kb.chunk_table]);
      // New writes go to the new table with the new model.
      await core.client.addDocument({ kb_id: 'k', doc_id: 'late', content: 'Cats and dogs are animals.' });
      expect(await table.count("doc_id = 'late' AND vector IS NOT NULL")).toBe(1);
      await expect(core.client.changeKbModel({ kb_id: 'k', model: modelB })).rejects.toMatchObject({ code: 'invalid_parameter' });
    } finally {
      await core.close();
    }
  });

  it('refuses a model that cannot be loaded; switches an empty KB at once', async () => {
    const core = await openTestCore({ models: real });
    try {
      await core.client.createKb({ kb_id: 'e', embedding_model: modelA });
      await expect(core.client.changeKbModel({ kb_id: 'e', model: '/nonexistent/model' })).rejects.toMatchObject({
        code: 'model_unavailable',
      });
      expect((await core.client.modelChangeStatus({ kb_id: 'e' })).migration).toBeNull();
      expect(await core.client.changeKbModel({ kb_id: 'e', model: modelB })).toMatchObject({ state: 'done', chunks_total: 0 });
      await core.client.addDocument({ kb_id: 'e', doc_id: 'x', content: 'Heart patients need treatment.' });
      expect(core.ctx.store.registry.get('e')).toMatchObject({ embedding_model: modelB, embedding_dim: 32 });
      expect((await core.client.search({ query: 'heart', kb_ids: ['e'], mode: 'vector' })).hits[0]!.doc_id).toBe('x');
    } finally {
      await core.close();
    }
  });

  it('cancelling drops the shadow and leaves the old index intact', async () => {
    const { models, ctl } = gated();
    const core = await openTestCore({ models });
    try {
      await seed(core, 'c', 300);
      ctl.hold();
      await core.client.changeKbModel({ kb_id: 'c', model: modelB });
      await until(core, 'c', () => ctl.calls > 0);
      expect((await core.client.stats({})).kbs[0]!.migration).toMatchObject({ state: 'running', to_model: modelB });
      expect((await core.client.diagnostic({})).warnings.join('\n')).toContain(`c: changing model to ${modelB}`);
      expect(await tables(core, 'c')).toHaveLength(2);
      const cancelling = core.client.cancelModelChange({ kb_id: 'c' });
      ctl.open();
      expect(await cancelling).toMatchObject({ cancelled: true, migration: { state: 'cancelled' } });
      expect(await tables(core, 'c')).toEqual(['chunks__c']);
      expect(core.ctx.store.registry.get('c')).toMatchObject({ embedding_model: modelA, embedding_dim: 64 });
      expect(core.ctx.store.registry.get('c').chunk_table).toBeUndefined();
      const res = await core.client.search({ query: 'heart disease patients', kb_ids: ['c'], mode: 'vector', top_k: 1 });
      expect(res.hits[0]!.doc_id).toBe('heart');
      expect((await core.client.cancelModelChange({ kb_id: 'c' })).cancelled).toBe(false);
    } finally {
      ctl.open();
      await core.close();
    }
  });

  it('catches up writes and deletions made during the change, and searches never fail meanwhile', async () => {
    const { models, ctl } = gated();
    const core = await openTestCore({ models });
    try {
      await seed(core, 'w', 400);
      await real.getEmbedder(modelA);
      ctl.hold();
      await core.client.changeKbModel({ kb_id: 'w', model: modelB });
      await until(core, 'w', () => ctl.calls > 0);
      let stop = false;
      const failures: unknown[] = [];
      let searches = 0;
      const modelsSeen = new Set<string>();
      const loop = (async () => {
        while (!stop) {
          for (const mode of ['hybrid', 'vector', 'fts'] as const) {
            try {
              const res = await core.client.search({ query: 'heart disease patients', kb_ids: ['w'], mode, top_k: 5 });
              if (res.hits.length === 0) failures.push(`no hits (${mode})`);
              searches++;
              modelsSeen.add(core.ctx.store.registry.get('w').embedding_model);
            } catch (err) {
              failures.push(err);
            }
          }
        }
      })();
      // Writes while the change runs: new documents, a replaced one and deleted ones.
      await core.client.addDocumentsBatch({ kb_id: 'w', documents: docs(20, 'new') });
      await core.client.addDocument({
        kb_id: 'w',
        doc_id: 'd1',
        content: 'Replaced text about customs duties, version two',
        overwrite: true,
      });
      await core.client.deleteDocument({ kb_id: 'w', doc_id: 'd2' });
      ctl.open();
      await until(core, 'w', (m) => m.chunks_done > 150);
      await core.client.deleteDocument({ kb_id: 'w', doc_id: 'd3' });
      await core.client.addDocument({ kb_id: 'w', doc_id: 'last', content: 'Written just before the swap about freight.' });
      const done = await until(core, 'w', finished);
      await new Promise((r) => setTimeout(r, 200));
      stop = true;
      await loop;
      expect(failures).toEqual([]);
      expect(searches).toBeGreaterThan(3);
      // The loop ran before and after the swap.
      expect([...modelsSeen].sort()).toEqual([modelA, modelB].sort());
      expect(done.state).toBe('done');
      const table = (await core.ctx.store.chunks('w'))!;
      expect(table.dim).toBe(32);
      const docCount = await core.ctx.store.docs.count('w');
      expect(await table.count()).toBe(docCount);
      expect(docCount).toBe(400 + 1 + 20 + 1 - 2);
      expect(await table.count("doc_id IN ('d2', 'd3')")).toBe(0);
      expect(await table.count("doc_id LIKE 'new%'")).toBe(20);
      expect(await table.count("doc_id = 'last' AND vector IS NOT NULL")).toBe(1);
      expect((await table.listChunks('d1', 0, 5)).chunks[0]!.text).toContain('version two');
      expect(new Set(await table.chunkIds()).size).toBe(docCount);
    } finally {
      ctl.open();
      await core.close();
    }
  });

  it('a crash between the swap and recording it is seen as done at the next start, never dropping the live table', async () => {
    const dataDir = tempDir();
    let core = await openTestCore({ models: real, dataDir });
    await seed(core, 's', 10);
    await core.client.changeKbModel({ kb_id: 's', model: modelB });
    await until(core, 's', finished);
    await core.close();
    const file = path.join(dataDir, 'model-changes.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"state": "done"', '"state": "indexing"'));
    core = await openTestCore({ models: real, dataDir });
    try {
      expect((await core.client.modelChangeStatus({ kb_id: 's' })).migration!.state).toBe('interrupted');
      core.warmUp();
      expect(await until(core, 's', finished)).toMatchObject({ state: 'done' });
      expect(await tables(core, 's')).toEqual([core.ctx.store.registry.get('s').chunk_table]);
      expect((await core.client.search({ query: 'heart disease patients', kb_ids: ['s'], mode: 'vector', top_k: 1 })).hits[0]!.doc_id).toBe(
        'heart',
      );
    } finally {
      await core.close();
    }
  });

  it('a restart in the middle resumes, keeping what was already re-embedded', async () => {
    const { models, ctl } = gated();
    const dataDir = tempDir();
    let core = await openTestCore({ models, dataDir });
    await seed(core, 'r', 600);
    ctl.hold(2);
    await core.client.changeKbModel({ kb_id: 'r', model: modelB });
    await until(core, 'r', (m) => m.chunks_done >= 256 && ctl.calls > 2);
    const closing = core.close();
    ctl.open();
    await closing;
    const before = ctl.calls;

    core = await openTestCore({ models, dataDir });
    try {
      const interrupted = (await core.client.modelChangeStatus({ kb_id: 'r' })).migration!;
      expect(interrupted.state).toBe('interrupted');
      expect(interrupted.chunks_done).toBeGreaterThanOrEqual(256);
      expect((await core.client.stats({})).kbs[0]!.migration).toMatchObject({ state: 'interrupted' });
      expect(core.ctx.store.registry.get('r').embedding_model).toBe(modelA);
      core.warmUp();
      const done = await until(core, 'r', finished);
      expect(done).toMatchObject({ state: 'done', resumed: 1, chunks_done: 601 });
      // Only what was missing got embedded after the restart (batches of 128).
      expect(ctl.calls - before).toBeLessThanOrEqual(Math.ceil((601 - interrupted.chunks_done) / 128) + 1);
      const table = (await core.ctx.store.chunks('r'))!;
      expect(await table.count()).toBe(601);
      expect(new Set(await table.chunkIds()).size).toBe(601);
      expect((await core.client.search({ query: 'heart disease patients', kb_ids: ['r'], mode: 'vector', top_k: 1 })).hits[0]!.doc_id).toBe(
        'heart',
      );
    } finally {
      await core.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../core.js';
import { openTestCore, tempDir } from '../../test-support.js';
import { createModelManager } from '../model-manager.js';
import { startFakeServer, sendJson, type FakeServer } from './test-servers.js';

// The real Core (LanceDB in a temp dir, the contract client) with a KB whose model is an Ollama server on
// loopback, written here: ingestion embeds through it, vector and hybrid search query through it.
let ollama: FakeServer;
let core: Core;
let model: string;

const DOCS = [
  { doc_id: 'heart', title: 'Heart health', content: 'Cardiovascular disease is a leading cause of death; heart patients need treatment.' },
  { doc_id: 'customs', title: 'Customs', content: 'Import goods must be declared at customs and duties paid before release.' },
  { doc_id: 'shipping', title: 'Shipping', content: 'We ship goods by sea freight; the transit time from Shanghai is thirty days.' },
  { doc_id: 'returns', title: 'Returns', content: 'Customers may return a product within thirty days of purchase.' },
];

beforeAll(async () => {
  ollama = await startFakeServer({ dim: 64 });
  model = `ollama:test-model@${ollama.url}`;
  core = await openTestCore();
  await core.client.createKb({ kb_id: 'remote', embedding_model: model });
  const results = await core.client.addDocumentsBatch({ kb_id: 'remote', documents: DOCS });
  expect(results.results.map((r) => r.result?.embedded)).toEqual([true, true, true, true]);
});

afterAll(async () => {
  await core?.close();
  await ollama?.close();
});

describe('a KB on an Ollama embedder, through the real Core', () => {
  it('embedded every chunk through the server and recorded the dimension', async () => {
    const kb = await core.client.getKb({ kb_id: 'remote' });
    expect(kb.embedding_model).toBe(model);
    expect(kb.embedding_dim).toBe(64);
    const inputs = ollama.requests.filter((r) => r.path === '/api/embed').flatMap((r) => r.body.input as string[]);
    for (const d of DOCS) expect(inputs).toContain(`${d.title}\n${d.content}`);
    const status = await core.client.modelStatus({});
    expect(status).toContainEqual({
      model,
      resolved: `ollama:test-model@${ollama.url}/api/embed`,
      kind: 'embedding',
      state: 'loaded',
      dim: 64,
    });
  });

  it('vector search ranks by the server’s vectors', async () => {
    const before = ollama.requests.length;
    const res = await core.client.search({ query: 'heart disease treatment', kb_ids: ['remote'], mode: 'vector', top_k: 2 });
    expect(res.hits[0]!.doc_id).toBe('heart');
    expect(res.degraded).toBeUndefined();
    expect(ollama.requests.slice(before).map((r) => r.body.input)).toEqual([['heart disease treatment']]);
  });

  it('hybrid search fuses full-text and vectors', async () => {
    const res = await core.client.search({ query: 'customs duties for import goods', kb_ids: ['remote'], mode: 'hybrid', top_k: 3 });
    expect(res.degraded).toBeUndefined();
    expect(res.hits[0]!.doc_id).toBe('customs');
  });

  it('loadModel and the token counter work for the remote string', async () => {
    expect(await core.client.loadModel({ model })).toMatchObject({ state: 'loaded', dim: 64 });
    expect((await core.ctx.models.getTokenCounter(model)).id).toBe('estimate');
    const preview = await core.client.preview({ kb_id: 'remote', content: 'A short text to chunk.' });
    expect(preview.chunks.length).toBeGreaterThan(0);
  });

  it('refuses a KB with a malformed remote model string', async () => {
    await expect(core.client.createKb({ kb_id: 'bad', embedding_model: 'ollama:x@ftp://nowhere' })).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
    await expect(
      core.client.createKb({ kb_id: 'bad', embedding_model: 'openai:x?api_key=sk-abcdefghijklmnopqrstuv' }),
    ).rejects.toMatchObject({ code: 'invalid_parameter' });
    expect((await core.client.listKbs({})).map((k) => k.kb_id)).not.toContain('bad');
  });
});

describe('when the endpoint goes down', () => {
  it('hybrid answers from full-text and says why; nothing is sent while the circuit is open', async () => {
    const server = await startFakeServer({ dim: 32 });
    const models = createModelManager({
      dataDir: tempDir(),
      remote: { retries: 0, failureThreshold: 2, cooldownMs: 60_000, log: () => undefined },
    });
    const down = await openTestCore({ models });
    try {
      const m = `ollama:test-model@${server.url}`;
      await down.client.createKb({ kb_id: 'kb', embedding_model: m });
      await down.client.addDocumentsBatch({ kb_id: 'kb', documents: DOCS });
      server.always = (_req, res) => sendJson(res, 500, { error: 'model runner crashed' });
      const first = await down.client.search({ query: 'heart disease', kb_ids: ['kb'], mode: 'hybrid' });
      expect(first.hits[0]!.doc_id).toBe('heart');
      expect(first.degraded).toMatch(/HTTP 500.*model runner crashed.*answered from full-text only/);
      // While the model is in error, searches do not wait on it: no request (a background probe at most every few s).
      let calls = server.requests.length;
      expect((await down.client.search({ query: 'customs', kb_ids: ['kb'], mode: 'hybrid' })).degraded).toMatch(/is error.*HTTP 500/);
      expect(server.requests.length).toBe(calls);
      // A second failure (a load attempt) opens the circuit: from then on nothing is sent at all.
      await expect(down.ctx.models.getEmbedder(m)).rejects.toMatchObject({ code: 'model_unavailable' });
      calls = server.requests.length;
      await expect(down.ctx.models.getEmbedder(m)).rejects.toThrow(/circuit open/);
      const third = await down.client.search({ query: 'customs goods', kb_ids: ['kb'], mode: 'hybrid' });
      expect(third.hits[0]!.doc_id).toBe('customs');
      expect(third.degraded).toMatch(/is error.*circuit open/);
      expect(server.requests.length).toBe(calls);
      await expect(down.client.search({ query: 'customs', kb_ids: ['kb'], mode: 'vector' })).rejects.toMatchObject({
        code: 'model_unavailable',
      });
      // Ingestion while it is down stores chunks without vectors (full-text still finds them).
      const added = await down.client.addDocument({ kb_id: 'kb', doc_id: 'late', content: 'Late arrivals about penguins.' });
      expect(added).toMatchObject({ embedded: false });
      expect((await down.client.search({ query: 'penguins', kb_ids: ['kb'], mode: 'fts' })).hits[0]!.doc_id).toBe('late');
    } finally {
      await down.close();
      await models.dispose();
      await server.close();
    }
  });
});

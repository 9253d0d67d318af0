import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelStatusSchema } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { buildFixtureModel, buildFixtureReranker, type FixtureModelInfo } from './fixture-model.js';
import type { ModelProgressEvent } from './types.js';
import { BATCHES_IN_FLIGHT, createModelManager, type WorkerModelManager } from './model-manager.js';
import type { EmbedWorkerClient, RequestBody } from './worker-client.js';

// Everything here goes through the worker thread and the real loading path, with downloads off.
let root: string;
let fixture: FixtureModelInfo;
let reranker: FixtureModelInfo;
let manager: WorkerModelManager;
const events: ModelProgressEvent[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'ragdesk-manager-'));
  fixture = await buildFixtureModel(path.join(root, 'models', 'fixture'), { dim: 48 });
  reranker = await buildFixtureReranker(path.join(root, 'models', 'fixture-rerank'));
  manager = createModelManager({ dataDir: path.join(root, 'data'), allowDownload: false, batchSize: 4 });
  manager.onProgress((e) => events.push(e));
});

afterAll(async () => {
  await manager?.dispose();
});

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const closeTo = (a: Float32Array, b: Float32Array) => {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i]!, 5);
};

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('WorkerModelManager with the fixture model', () => {
  it('loads a folder model through the worker and reports loading → loaded', async () => {
    const embedder = await manager.getEmbedder(fixture.dir);
    expect(embedder.dim).toBe(48);
    expect(embedder.model).toBe(fixture.dir);
    expect(embedder.resolved).toBe(fixture.dir);
    const mine = events.filter((e) => e.model === fixture.dir).map((e) => e.state);
    expect(mine[0]).toBe('loading');
    expect(mine.at(-1)).toBe('loaded');
    const status = manager.status().find((s) => s.model === fixture.dir);
    expect(ModelStatusSchema.parse(status)).toEqual({
      model: fixture.dir,
      resolved: fixture.dir,
      kind: 'embedding',
      state: 'loaded',
      dim: 48,
    });
    expect(await manager.getEmbedder(fixture.dir)).toBe(embedder);
  });

  it('returns unit vectors, one per text, in order, across batches', async () => {
    const embedder = await manager.getEmbedder(fixture.dir);
    const texts = Array.from({ length: 10 }, (_, i) => `document number ${i} about heart disease ${'and more words '.repeat(i)}`);
    const vectors = await embedder.embedPassages(texts); // batchSize 4 → 3 worker round trips
    expect(vectors).toHaveLength(10);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(48);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    for (const i of [0, 5, 9]) closeTo(vectors[i]!, (await embedder.embedPassages([texts[i]!]))[0]!);
    expect(await embedder.embedPassages([])).toEqual([]);
  });

  it('keeps several batches queued in the worker, and runs a query before the ones waiting', async () => {
    const embedder = await manager.getEmbedder(fixture.dir);
    const client = (manager as unknown as { client: EmbedWorkerClient }).client;
    const request = client.request.bind(client);
    let inFlight = 0;
    let most = 0;
    const done: string[] = [];
    client.request = (<T>(body: RequestBody, transfer?: ArrayBuffer[]) => {
      const kind = body.type !== 'embed' ? 'other' : body.urgent ? 'query' : 'passages';
      if (kind === 'passages') most = Math.max(most, ++inFlight);
      return request<T>(body, transfer).finally(() => {
        if (kind === 'passages') inFlight--;
        done.push(kind);
      });
    }) as typeof client.request;
    try {
      // The worker's compute lane is held while the batches and the query arrive, so all of them wait in its queue.
      const held = client.request({ type: 'hold', ms: 300 });
      const texts = Array.from({ length: 40 }, (_, i) => `passage ${i} about heart disease and customs law`);
      const passages = embedder.embedPassages(texts); // batchSize 4 → 10 batches
      const [q] = await embedder.embedQueries(['heart disease']);
      const vectors = await passages;
      await held;
      // BATCHES_IN_FLIGHT of the passage batches were queued at once (one at a time left the worker idle whenever
      // this thread was busy), and the query went ahead of them: in arrival order it would come after all four.
      expect(most).toBe(BATCHES_IN_FLIGHT);
      expect(done.filter((d) => d !== 'other').indexOf('query')).toBe(0);
      expect(vectors).toHaveLength(40);
      for (const i of [0, 17, 39]) closeTo(vectors[i]!, (await embedder.embedPassages([texts[i]!]))[0]!);
      closeTo(q!, (await embedder.embedQueries(['heart disease']))[0]!);
    } finally {
      client.request = request;
    }
  });

  it('pools with the attention mask: padding in a batch does not change a vector', async () => {
    const embedder = await manager.getEmbedder(fixture.dir);
    const [alone] = await embedder.embedPassages(['heart']);
    const [padded] = await embedder.embedPassages([
      'heart',
      'a much longer text that forces the short one to be padded with many pad tokens',
    ]);
    closeTo(alone!, padded!);
  });

  it('ranks the passage that shares the query words first', async () => {
    const embedder = await manager.getEmbedder(fixture.dir);
    const passages = ['tax law and customs duties at the border', 'treatment of heart disease in hospital', 'the cat and the dog'];
    const [q] = await embedder.embedQueries(['heart disease treatment']);
    const docs = await embedder.embedPassages(passages);
    const scores = docs.map((d) => dot(q!, d));
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
    const [ru] = await embedder.embedQueries(['таможенные пошлины']);
    const ruDocs = await embedder.embedPassages(['таможенные пошлины и товары', 'болезни сердца', '中国人民']);
    const ruScores = ruDocs.map((d) => dot(ru!, d));
    expect(ruScores.indexOf(Math.max(...ruScores))).toBe(0);
  });

  it('adds e5 query/passage prefixes for e5-style models and none for others', async () => {
    // Same weights under an e5-style folder name: its queries are the plain model's "query: " texts.
    const e5 = await buildFixtureModel(path.join(root, 'models', 'e5-fixture'), { dim: 48 });
    const e5Embedder = await manager.getEmbedder(e5.dir);
    const plain = await manager.getEmbedder(fixture.dir);
    const [q] = await e5Embedder.embedQueries(['heart disease']);
    const [p] = await e5Embedder.embedPassages(['heart disease']);
    closeTo(q!, (await plain.embedPassages(['query: heart disease']))[0]!);
    closeTo(p!, (await plain.embedPassages(['passage: heart disease']))[0]!);
    closeTo((await plain.embedQueries(['heart disease']))[0]!, (await plain.embedPassages(['heart disease']))[0]!);
  });

  it('reranks with the cross-encoder, scores in passage order', async () => {
    const rr = await manager.getReranker(reranker.dir);
    expect(rr.model).toBe(reranker.dir);
    const passages = ['the cat and the dog', 'tax law and customs', 'heart disease treatment', 'heart of the city'];
    const scores = await rr.score('heart disease treatment', passages);
    expect(scores).toHaveLength(4);
    expect(scores.indexOf(Math.max(...scores))).toBe(2);
    expect(scores[3]!).toBeGreaterThan(scores[0]!);
    // batching (batchSize 4) does not change scores
    const many = await rr.score('heart disease treatment', [...passages, ...passages]);
    many.forEach((s, i) => expect(s).toBeCloseTo(scores[i % 4]!, 5));
    expect(await rr.score('x', [])).toEqual([]);
    expect(manager.status().find((s) => s.kind === 'rerank')?.state).toBe('loaded');
  });

  it('peekEmbedder returns nothing until a background load finishes, then the embedder', async () => {
    const other = await buildFixtureModel(path.join(root, 'models', 'fixture-peek'), { dim: 16 });
    expect(manager.peekEmbedder(other.dir)).toBeUndefined();
    await until(() => manager.peekEmbedder(other.dir) !== undefined);
    expect(manager.peekEmbedder(other.dir)?.dim).toBe(16);
    expect(manager.peekReranker(reranker.dir)).toBeDefined();
  });

  it('a missing model with downloads off: model_unavailable, status missing, no download', async () => {
    const err = await manager.getEmbedder('multilingual').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RagError);
    expect((err as RagError).code).toBe('model_unavailable');
    expect((err as RagError).message).toBe(
      `model "multilingual" (Xenova/multilingual-e5-small) is not in ${path.join(root, 'data', 'models')} and downloads are off`,
    );
    expect((err as RagError).cause).toBeInstanceOf(Error);
    const status = manager.status().find((s) => s.model === 'multilingual');
    expect(status).toMatchObject({ state: 'missing', resolved: 'Xenova/multilingual-e5-small', kind: 'embedding' });
    expect(status?.error).toContain('downloads are off');
    expect(manager.peekEmbedder('multilingual')).toBeUndefined();

    const folderErr = await manager.getEmbedder(path.join(root, 'nope')).catch((e: unknown) => e);
    expect((folderErr as RagError).code).toBe('model_unavailable');
    expect(manager.status().find((s) => s.model === path.join(root, 'nope'))?.state).toBe('missing');
    await expect(manager.getReranker('rerank')).rejects.toMatchObject({ code: 'model_unavailable' });
  });

  it('refuses a model missing on disk without starting the worker, with the error the worker gives', async () => {
    const fresh = createModelManager({ dataDir: path.join(root, 'data-fresh'), allowDownload: false });
    try {
      const err = (await fresh.getEmbedder('multilingual').catch((e: unknown) => e)) as RagError;
      expect(err).toBeInstanceOf(RagError);
      expect(err.message).toBe(
        `model "multilingual" (Xenova/multilingual-e5-small) is not in ${path.join(root, 'data-fresh', 'models')} and downloads are off`,
      );
      expect(err.details).toMatchObject({ state: 'missing', resolved: 'Xenova/multilingual-e5-small' });
      expect(err.cause).toBeInstanceOf(Error);
      await expect(fresh.getReranker('rerank')).rejects.toMatchObject({ code: 'model_unavailable' });
      await expect(fresh.getEmbedder(path.join(root, 'nope'))).rejects.toMatchObject({ code: 'model_unavailable' });
      expect(fresh.status().map((s) => s.state)).toEqual(['missing', 'missing', 'missing']);
      const client = (fresh as unknown as { client: EmbedWorkerClient }).client;
      // No worker was ever spawned (each spawn is a generation).
      expect(client.generation).toBe(0);
      // A model on disk starts it.
      expect((await fresh.getEmbedder(fixture.dir)).dim).toBeGreaterThan(0);
      expect(client.generation).toBe(1);
    } finally {
      await fresh.dispose();
    }
  });

  it('counts tokens with the model tokenizer, or estimates when it is not at hand', async () => {
    const counter = await manager.getTokenCounter(fixture.dir);
    expect(counter.id).toBe(fixture.dir);
    expect(counter.count('heart disease')).toBe(2);
    expect(counter.count('中国人')).toBe(3);
    expect(counter.count('')).toBe(0);
    const estimate = await manager.getTokenCounter('multilingual');
    expect(estimate.id).toBe('estimate');
    expect(estimate.count('heart disease')).toBe(4);
  });

  it('loads a tokenizer once when two writes ask for it at once', async () => {
    const fresh = createModelManager({ dataDir: path.join(root, 'data-tokenizer-once'), allowDownload: false });
    try {
      const [a, b] = await Promise.all([fresh.getTokenCounter(fixture.dir), fresh.getTokenCounter(fixture.dir)]);
      expect(a.id).toBe(fixture.dir);
      expect(b).toBe(a);
      expect(await fresh.getTokenCounter(fixture.dir)).toBe(a);
    } finally {
      await fresh.dispose();
    }
  });

  it('restarts a crashed worker and keeps serving the same embedder', async () => {
    const embedder = await manager.getEmbedder(fixture.dir);
    const [before] = await embedder.embedPassages(['heart disease']);
    manager.simulateWorkerCrash();
    await until(() => events.some((e) => e.model === fixture.dir && e.state === 'error'));
    const [after] = await embedder.embedPassages(['heart disease']);
    closeTo(before!, after!);
    // what was loaded before the crash is loaded again in the new worker
    await until(() => manager.status().every((s) => s.state === 'loaded' || s.state === 'missing'));
    expect(manager.status().find((s) => s.model === reranker.dir)?.state).toBe('loaded');
    expect(await (await manager.getReranker(reranker.dir)).score('heart', ['heart', 'tax'])).toHaveLength(2);
  });
});

describe('dispose', () => {
  it('stops the worker, fails work in flight and refuses new work', async () => {
    const m = createModelManager({ dataDir: path.join(root, 'data2'), allowDownload: false });
    const embedder = await m.getEmbedder(fixture.dir);
    const pending = embedder.embedPassages(Array.from({ length: 2000 }, (_, i) => `text ${i} heart disease`)).catch((e: unknown) => e);
    await m.dispose();
    expect(await pending).toMatchObject({ code: 'model_unavailable' });
    await expect(m.getEmbedder(fixture.dir)).rejects.toMatchObject({ code: 'model_unavailable' });
    expect(m.peekEmbedder(fixture.dir)).toBeUndefined();
    await m.dispose(); // idempotent
  });
});

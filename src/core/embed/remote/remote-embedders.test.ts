import { afterEach, describe, expect, it } from 'vitest';
import { RagError } from '../../../shared/errors.js';
import { tempDir } from '../../test-support.js';
import { createModelManager, type WorkerModelManager } from '../model-manager.js';
import type { ModelProgressEvent } from '../types.js';
import type { RemoteModelsOptions } from './remote-models.js';
import { fakeVector, sendJson, trackedServer, type FakeServer } from './test-servers.js';

// Real HTTP servers on 127.0.0.1 speaking the Ollama and OpenAI APIs, through the real ModelManager.
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

const server = (dim?: number): Promise<FakeServer> => trackedServer(cleanup, dim);

function manager(remote: RemoteModelsOptions = {}): { models: WorkerModelManager; logs: string[]; events: ModelProgressEvent[] } {
  const logs: string[] = [];
  const events: ModelProgressEvent[] = [];
  const models = createModelManager({
    dataDir: tempDir(),
    allowDownload: false,
    remote: { log: (level, m) => logs.push(`${level}: ${m}`), baseDelayMs: 5, maxDelayMs: 20, ...remote },
  });
  models.onProgress((e) => events.push(e));
  cleanup.push(() => models.dispose());
  return { models, logs, events };
}

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
function unit(v: number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
}
function expectClose(a: Float32Array, b: number[]): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < b.length; i++) expect(a[i]).toBeCloseTo(b[i]!, 5);
}
async function failure(p: Promise<unknown>): Promise<RagError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(RagError);
    return err as RagError;
  }
  throw new Error('expected a failure');
}

describe('Ollama embedder', () => {
  it('probes on load, learns the dimension, and reports loading → loaded', async () => {
    const s = await server(24);
    const { models, events } = manager();
    const model = `ollama:test-model@${s.url}`;
    const embedder = await models.getEmbedder(model);
    expect(embedder.dim).toBe(24);
    expect(embedder.resolved).toBe(`ollama:test-model@${s.url}/api/embed`);
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]).toMatchObject({ method: 'POST', path: '/api/embed', body: { model: 'test-model' } });
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
    expect(models.status()).toEqual([
      { model, resolved: `ollama:test-model@${s.url}/api/embed`, kind: 'embedding', state: 'loaded', dim: 24 },
    ]);
    expect(events.map((e) => e.state)).toEqual(['loading', 'loaded']);
    expect(await models.getEmbedder(model)).toBe(embedder);
    expect(models.peekEmbedder(model)).toBe(embedder);
    expect(s.requests).toHaveLength(1);
  });

  it('batches, keeps order, and returns unit vectors', async () => {
    const s = await server(16);
    const { models } = manager();
    const embedder = await models.getEmbedder(`ollama:test-model@${s.url}?batch=3`);
    s.requests.length = 0;
    const texts = Array.from({ length: 7 }, (_, i) => `text number ${i} about word${i}`);
    const vectors = await embedder.embedPassages(texts);
    expect(s.requests.map((r) => (r.body.input as string[]).length)).toEqual([3, 3, 1]);
    expect(s.requests.flatMap((r) => r.body.input as string[])).toEqual(texts);
    expect(vectors).toHaveLength(7);
    vectors.forEach((v, i) => {
      expect(v).toBeInstanceOf(Float32Array);
      expect(norm(v)).toBeCloseTo(1, 5);
      expectClose(v, unit(fakeVector(texts[i]!, 16)));
    });
    expect(await embedder.embedQueries([])).toEqual([]);
  });

  it('adds the prefixes a known model wants (nomic: search_query / search_document)', async () => {
    const s = await server();
    const { models } = manager();
    const embedder = await models.getEmbedder(`ollama:nomic-embed-text:v1.5@${s.url}`);
    s.requests.length = 0;
    await embedder.embedQueries(['what is customs']);
    await embedder.embedPassages(['Customs checks documents.']);
    expect(s.requests.map((r) => r.body.input)).toEqual([
      ['search_query: what is customs'],
      ['search_document: Customs checks documents.'],
    ]);
  });

  it('peekEmbedder starts a background probe and never waits', async () => {
    const s = await server();
    const { models } = manager();
    const model = `ollama:test-model@${s.url}`;
    expect(models.peekEmbedder(model)).toBeUndefined();
    await expect.poll(() => models.peekEmbedder(model)?.dim, { timeout: 5000 }).toBe(16);
  });

  it('reports a model that is not pulled as missing, with the command to pull it', async () => {
    const s = await server();
    s.always = (_req, res) => sendJson(res, 404, { error: 'model "nope" not found, try pulling it first' });
    const { models } = manager();
    const model = `ollama:nope@${s.url}`;
    const err = await failure(models.getEmbedder(model));
    expect(err.code).toBe('model_unavailable');
    expect(err.message).toMatch(/not found.*ollama pull nope/);
    expect(models.status()[0]).toMatchObject({ model, state: 'missing' });
    expect(models.status()[0]!.error).toMatch(/ollama pull nope/);
    expect(s.requests).toHaveLength(1); // a 4xx is not retried
  });

  it('falls back to /api/embeddings on an Ollama without /api/embed', async () => {
    const s = await server(12);
    s.always = (req, res) => {
      if (req.path !== '/api/embed') return false;
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found');
      return true;
    };
    const { models } = manager();
    const embedder = await models.getEmbedder(`ollama:old-model@${s.url}`);
    const vectors = await embedder.embedPassages(['alpha beta', 'gamma']);
    expectClose(vectors[1]!, unit(fakeVector('gamma', 12)));
    expect(s.requests.map((r) => r.path)).toEqual(['/api/embed', '/api/embeddings', '/api/embeddings', '/api/embeddings']);
    expect(s.requests.at(-1)!.body).toEqual({ model: 'old-model', prompt: 'gamma' });
  });

  it('uses the estimate token counter, refuses remote rerankers and bad strings', async () => {
    const { models } = manager();
    expect((await models.getTokenCounter('ollama:nomic-embed-text')).id).toBe('estimate');
    expect((await failure(models.getReranker('ollama:some-reranker'))).code).toBe('invalid_parameter');
    expect((await failure(models.getEmbedder('ollama:bad name'))).code).toBe('invalid_parameter');
    expect((await failure(models.getTokenCounter('openai:x?nope=1'))).code).toBe('invalid_parameter');
  });
});

describe('OpenAI-compatible embedder', () => {
  const KEY = 'sk-test-0123456789abcdefghijklmnop';

  it('sends the key as a bearer token, puts answers back in input order, and passes dimensions', async () => {
    const s = await server();
    const { models } = manager({ env: { OPENAI_API_KEY: KEY } });
    const embedder = await models.getEmbedder(`openai:text-embedding-3-small@${s.url}/v1?dimensions=8`);
    expect(embedder.dim).toBe(8);
    s.requests.length = 0;
    const texts = ['alpha', 'beta gamma', 'delta'];
    const vectors = await embedder.embedPassages(texts);
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]).toMatchObject({ path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: texts, dimensions: 8 } });
    expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    vectors.forEach((v, i) => expectClose(v, unit(fakeVector(texts[i]!, 8))));
    expect(JSON.stringify(models.status())).not.toContain(KEY);
  });

  it('reads the key from the variable key_env names, and says so when it is not set', async () => {
    const s = await server();
    const { models } = manager({ env: { MY_EMBED_KEY: 'my-own-secret-key-value' } });
    await models.getEmbedder(`openai:m@${s.url}/v1?key_env=MY_EMBED_KEY`);
    expect(s.requests[0]!.headers.authorization).toBe('Bearer my-own-secret-key-value');
    const err = await failure(models.getEmbedder(`openai:m@${s.url}/v1?key_env=UNSET_EMBED_KEY`));
    expect(err.message).toMatch(/UNSET_EMBED_KEY is not set/);
    expect(s.requests).toHaveLength(1);
  });

  it('sends no Authorization header to a local server when no key is set', async () => {
    const s = await server();
    const { models } = manager({ env: {} });
    await models.getEmbedder(`openai:local-model@${s.url}/v1`);
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('a 401 names the variable, never the key, even when the server echoes it', async () => {
    const s = await server();
    s.always = (req, res) =>
      sendJson(res, 401, {
        error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}`, type: 'invalid_request_error' },
      });
    const { models, logs } = manager({ env: { OPENAI_API_KEY: KEY } });
    const err = await failure(models.getEmbedder(`openai:m@${s.url}/v1`));
    expect(err.code).toBe('model_unavailable');
    expect(err.message).toMatch(/HTTP 401.*Incorrect API key provided: Bearer \[redacted\].*OPENAI_API_KEY/);
    expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    for (const text of [err.message, JSON.stringify(err.details), JSON.stringify(models.status()), ...logs])
      expect(text).not.toContain(KEY);
    expect(logs.some((l) => l.includes('HTTP 401'))).toBe(true);
  });

  it('a 400 (input refused) is invalid_parameter and leaves the model loaded', async () => {
    const s = await server();
    const { models } = manager({ env: {} });
    const model = `openai:m@${s.url}/v1`;
    const embedder = await models.getEmbedder(model);
    s.queue.push((_req, res) => sendJson(res, 400, { error: { message: 'maximum context length is 8192 tokens' } }));
    const err = await failure(embedder.embedPassages(['x'.repeat(100)]));
    expect(err.code).toBe('invalid_parameter');
    expect(err.message).toMatch(/maximum context length/);
    expect(models.status()[0]!.state).toBe('loaded');
  });
});

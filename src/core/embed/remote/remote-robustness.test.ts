import { afterEach, describe, expect, it } from 'vitest';
import { RagError } from '../../../shared/errors.js';
import { tempDir } from '../../test-support.js';
import { createModelManager, type WorkerModelManager } from '../model-manager.js';
import type { RemoteModelsOptions } from './remote-models.js';
import { deadPort, sendJson, trackedServer, type FakeServer, type Script } from './test-servers.js';

// Timeouts, retries, Retry-After, the circuit breaker and key redaction, against real loopback HTTP servers.
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

const server = (dim?: number): Promise<FakeServer> => trackedServer(cleanup, dim);

function manager(remote: RemoteModelsOptions = {}): { models: WorkerModelManager; logs: string[] } {
  const logs: string[] = [];
  const models = createModelManager({
    dataDir: tempDir(),
    allowDownload: false,
    remote: { log: (level, m) => logs.push(`${level}: ${m}`), baseDelayMs: 5, maxDelayMs: 20, ...remote },
  });
  cleanup.push(() => models.dispose());
  return { models, logs };
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

const status =
  (code: number, headers: Record<string, string> = {}, body: unknown = { error: 'server trouble' }): Script =>
  (_req, res) =>
    sendJson(res, code, body, headers);
const hang: Script = () => true; // never answers

describe('retries', () => {
  it('retries a 500 and succeeds', async () => {
    const s = await server();
    s.queue.push(status(500), status(503));
    const { models, logs } = manager();
    const embedder = await models.getEmbedder(`ollama:m@${s.url}`);
    expect(embedder.dim).toBe(16);
    expect(s.requests).toHaveLength(3);
    expect(logs.filter((l) => l.startsWith('debug:') && /HTTP 50\d.*retry \d\/3/.test(l))).toHaveLength(2);
    expect(models.status()[0]!.state).toBe('loaded');
  });

  it('honours Retry-After on 429', async () => {
    const s = await server();
    s.queue.push(status(429, { 'retry-after': '1' }, { error: { message: 'rate limited' } }));
    const { models } = manager({ baseDelayMs: 1 });
    await models.getEmbedder(`openai:m@${s.url}/v1`);
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('does not wait for a Retry-After longer than allowed', async () => {
    const s = await server();
    s.always = status(429, { 'retry-after': '3600' }, { error: { message: 'quota exceeded' } });
    const { models } = manager({ maxRetryAfterMs: 5000 });
    const err = await failure(models.getEmbedder(`openai:m@${s.url}/v1`));
    expect(err.message).toMatch(/HTTP 429.*quota exceeded.*retry after 3600 s/);
    expect(s.requests).toHaveLength(1);
  });

  it('times out a request that gets no answer, retries it, then fails', async () => {
    const s = await server();
    s.always = hang;
    const { models } = manager();
    const started = Date.now();
    const err = await failure(models.getEmbedder(`ollama:m@${s.url}?timeout_ms=200&retries=1`));
    expect(err.code).toBe('model_unavailable');
    expect(err.message).toMatch(/no answer within 200 ms \(timed out\) \(after 2 attempts\)/);
    expect(s.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(models.status()[0]).toMatchObject({ state: 'error' });
  });

  it('gives a waiting search less: query embeddings retry once, passages up to `retries` times', async () => {
    const s = await server();
    const { models } = manager({ retries: 3, failureThreshold: 100 });
    const embedder = await models.getEmbedder(`ollama:m@${s.url}`);
    s.always = status(500);
    s.requests.length = 0;
    await failure(embedder.embedQueries(['q']));
    expect(s.requests).toHaveLength(2);
    s.requests.length = 0;
    await failure(embedder.embedPassages(['p']));
    expect(s.requests).toHaveLength(4);
  });

  it('reports a refused connection as model_unavailable', async () => {
    const url = await deadPort();
    const { models } = manager({ retries: 1 });
    const err = await failure(models.getEmbedder(`ollama:m@${url}`));
    expect(err.code).toBe('model_unavailable');
    expect(err.message).toMatch(/cannot reach the endpoint \(.*ECONNREFUSED.*\(after 2 attempts\)/);
  });
});

describe('circuit breaker', () => {
  it('opens after repeated failures and then fails fast without touching the server', async () => {
    const s = await server();
    s.always = status(500);
    const { models, logs } = manager({ retries: 1, failureThreshold: 4, cooldownMs: 60_000 });
    const model = `ollama:m@${s.url}`;
    await failure(models.getEmbedder(model)); // 2 attempts
    await failure(models.getEmbedder(model)); // 2 more: open
    expect(s.requests).toHaveLength(4);
    expect(logs.some((l) => /^warn: endpoint .* is failing \(4 consecutive failures, last: HTTP 500/.test(l))).toBe(true);
    const started = Date.now();
    const err = await failure(models.getEmbedder(model));
    expect(Date.now() - started).toBeLessThan(100);
    expect(err.code).toBe('model_unavailable');
    expect(err.message).toMatch(/circuit open after 4 consecutive failures \(last: HTTP 500.*server trouble\); next try in \d+ s/);
    expect(models.peekEmbedder(model)).toBeUndefined();
    expect(s.requests).toHaveLength(4);
    expect(models.status()[0]).toMatchObject({ state: 'error' });
    expect(models.status()[0]!.error).toMatch(/circuit open/);
  });

  it('one circuit per endpoint: a second model on the same server fails fast too', async () => {
    const s = await server();
    s.always = status(502);
    const { models } = manager({ retries: 0, failureThreshold: 2, cooldownMs: 60_000 });
    await failure(models.getEmbedder(`ollama:a@${s.url}`));
    await failure(models.getEmbedder(`ollama:a@${s.url}`));
    expect((await failure(models.getEmbedder(`ollama:b@${s.url}`))).message).toMatch(/circuit open/);
    expect(s.requests).toHaveLength(2);
  });

  it('half-open: after the cool-down one probe goes through; failure re-opens, success closes', async () => {
    const s = await server();
    s.always = status(500);
    const { models, logs } = manager({ retries: 0, failureThreshold: 2, cooldownMs: 200 });
    const model = `ollama:m@${s.url}`;
    await failure(models.getEmbedder(model));
    await failure(models.getEmbedder(model));
    await failure(models.getEmbedder(model)); // open: fast
    expect(s.requests).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 250));
    await failure(models.getEmbedder(model)); // the probe fails: open again
    expect(s.requests).toHaveLength(3);
    expect((await failure(models.getEmbedder(model))).message).toMatch(/circuit open/);
    expect(s.requests).toHaveLength(3);
    s.always = undefined; // the server recovers
    await new Promise((r) => setTimeout(r, 250));
    const embedder = await models.getEmbedder(model);
    expect(embedder.dim).toBe(16);
    expect(s.requests).toHaveLength(4);
    expect(models.status()[0]).toMatchObject({ state: 'loaded', dim: 16 });
    expect(models.peekEmbedder(model)).toBe(embedder);
    expect(logs.some((l) => /answers again; circuit closed/.test(l))).toBe(true);
    await embedder.embedPassages(['works again']);
  });
});

describe('vector checks', () => {
  it('rejects a dimension that differs from the first answer, and recovers when it is right again', async () => {
    const s = await server(16);
    const { models } = manager();
    const model = `ollama:m@${s.url}`;
    const embedder = await models.getEmbedder(model);
    s.dim = 8; // someone swapped the model behind the endpoint
    const err = await failure(embedder.embedPassages(['hello']));
    expect(err.code).toBe('model_unavailable');
    expect(err.message).toMatch(/returned 8-d vectors but 16-d were expected/);
    expect(models.status()[0]).toMatchObject({ state: 'error' });
    expect(models.peekEmbedder(model)).toBeUndefined();
    s.dim = 16;
    await embedder.embedPassages(['hello']);
    expect(models.status()[0]).toMatchObject({ state: 'loaded', dim: 16 });
  });

  it('rejects a dimension other than the one asked for', async () => {
    const s = await server(16);
    s.always = (req, res) =>
      sendJson(res, 200, { data: (req.body.input as string[]).map((_, index) => ({ index, embedding: [1, 2, 3] })) });
    const { models } = manager({ env: {} });
    const err = await failure(models.getEmbedder(`openai:m@${s.url}/v1?dimensions=256`));
    expect(err.message).toMatch(/returned 3-d vectors but 256-d were expected/);
  });

  it('rejects malformed answers', async () => {
    const s = await server();
    const { models } = manager({ env: {} });
    s.queue.push((_req, res) => sendJson(res, 200, { embeddings: [[1, 'x']] }));
    expect((await failure(models.getEmbedder(`ollama:m@${s.url}`))).message).toMatch(/not a finite number/);
    s.queue.push((_req, res) => sendJson(res, 200, { embeddings: [] }));
    expect((await failure(models.getEmbedder(`ollama:m@${s.url}`))).message).toMatch(/0 vectors for 1 texts/);
    s.queue.push((_req, res) => sendJson(res, 200, { data: [{ index: 5, embedding: [1] }] }));
    expect((await failure(models.getEmbedder(`openai:m@${s.url}/v1`))).message).toMatch(/"index" values/);
  });
});

describe('API keys stay out of messages, status and logs', () => {
  it('redacts the key when a failing server echoes it, through retries and an open circuit', async () => {
    const KEY = 'abc123-not-shaped-like-anything-known';
    const s = await server();
    s.always = (req, res) => sendJson(res, 500, { error: `upstream failed for ${String(req.headers.authorization)} (key ${KEY})` });
    const { models, logs } = manager({ env: { EMBED_KEY: KEY }, retries: 2, failureThreshold: 3, cooldownMs: 60_000 });
    const model = `openai:m@${s.url}/v1?key_env=EMBED_KEY`;
    const errors = [await failure(models.getEmbedder(model)), await failure(models.getEmbedder(model))];
    expect(s.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(errors[1]!.message).toMatch(/circuit open/);
    const everything = [...errors.flatMap((e) => [e.message, JSON.stringify(e.details ?? {})]), JSON.stringify(models.status()), ...logs];
    expect(logs.length).toBeGreaterThan(2);
    for (const text of everything) expect(text).not.toContain(KEY);
    expect(errors[0]!.message).toContain('[redacted]');
  });
});

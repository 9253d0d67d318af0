import { request, type IncomingMessage } from 'node:http';
import os from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../core/auth/key-store.js';
import { dataPaths } from '../core/config/data-dir.js';
import type { Core } from '../core/core.js';
import { makeFixture, openTestCore, seedKbs, type Fixture } from '../mcp/test-support.js';
import { API_BODY_LIMIT } from './api-route.js';
import { authenticate, isLoopbackAddress } from './auth.js';
import { startHttpServer, type RunningHttpServer } from './server.js';

/** Abuse of the HTTP server: bodies before rights, the owner token off this machine, keys hogging the server. */

const OWNER_TOKEN = 'owner-token-for-limit-tests-0123456789';
let fx: Fixture;
let core: Core;
let keys: KeyStore;
let server: RunningHttpServer;
let nobody: string;
let reader: string;
let writer: string;

beforeAll(async () => {
  fx = await makeFixture('ragdesk-limits-');
  core = await openTestCore(fx.dataDir);
  await seedKbs(core, fx.modelDir);
  keys = new KeyStore(dataPaths(fx.dataDir).keys);
  nobody = keys.create({ name: 'nobody', read: [], write: [] }).key;
  reader = keys.create({ name: 'reader', read: ['alpha'] }).key;
  writer = keys.create({ name: 'writer', read: ['alpha'], write: ['alpha'] }).key;
  server = await startHttpServer({
    core,
    ownerToken: OWNER_TOKEN,
    port: 0,
    host: '0.0.0.0',
    keys,
    rateLimit: false,
    keyConcurrency: 3,
    keyUploads: 1,
    maxSessions: 6,
    maxSessionsPerKey: 3,
  });
});

afterAll(async () => {
  await server?.close();
  await core?.close();
  fx?.cleanup();
});

interface Answer {
  status: number;
  body: { error?: { code: string; message: string } } & Record<string, unknown>;
  /** Bytes of the body the client had written when the answer came. */
  sent: number;
}

/**
 * POST to `path` declaring `declared` bytes but sending only `send` of them (then waiting): a server that answers
 * has decided without reading the whole body. `hold` keeps the request open after the answer until it resolves.
 */
function post(
  path: string,
  token: string,
  opts: { declared?: number; body?: string; send?: number; host?: string; headers?: Record<string, string> } = {},
): { answer: Promise<Answer>; abort: () => void } {
  const body = Buffer.from(opts.body ?? '');
  const declared = opts.declared ?? body.length;
  let sent = 0;
  const req = request({
    host: opts.host ?? '127.0.0.1',
    port: server.port,
    path,
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'Content-Length': String(declared),
      Host: `127.0.0.1:${server.port}`,
      ...opts.headers,
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Answer['body']) : {}, sent });
      });
    });
    req.on('error', (err) => (sent < declared ? undefined : reject(err)));
  });
  const first = body.length ? body : Buffer.alloc(Math.min(opts.send ?? declared, declared), 0x20);
  const chunk = first.subarray(0, opts.send ?? first.length);
  sent = chunk.length;
  req.write(chunk);
  if (sent >= declared) req.end();
  return { answer, abort: () => req.destroy() };
}

const within = <T>(p: Promise<T>, ms = 5000): Promise<T> =>
  Promise.race([p, new Promise<T>((_r, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))]);

describe('bodies are limited by method and rights before they are read', () => {
  it('a key without rights is refused at once, however large the body it announces', async () => {
    for (const method of ['addDocument', 'uploadFile', 'createKey', 'preview']) {
      const r = post(`/api/${method}`, nobody, { declared: 150 * 1024 * 1024, send: 64 * 1024 });
      const a = await within(r.answer);
      r.abort();
      expect(a.status, method).toBe(403);
      expect(a.body.error?.code).toBe('permission_denied');
    }
  });

  it('about 1 MiB for every method but uploads, from a key or the owner', async () => {
    for (const token of [reader, OWNER_TOKEN]) {
      const r = post('/api/search', token, { declared: API_BODY_LIMIT + 1, send: 1024 });
      const a = await within(r.answer);
      r.abort();
      expect(a.status).toBe(413);
      expect(a.body.error?.code).toBe('too_large');
    }
    // Without a declared length the reading stops at the limit.
    const big = JSON.stringify({ query: 'x'.repeat(API_BODY_LIMIT) });
    const chunked = await fetch(`${server.url}/api/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${reader}` },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit).catch((err: unknown) => err);
    if (chunked instanceof Response) expect(chunked.status).toBe(413);
    // A write key uploads larger bodies.
    const doc = JSON.stringify({ kb_id: 'alpha', doc_id: 'big', content: `Harbour cranes. ${'word '.repeat(300_000)}` });
    expect(doc.length).toBeGreaterThan(API_BODY_LIMIT);
    const added = await within(post('/api/addDocument', writer, { body: doc }).answer, 60_000);
    expect(added.status).toBe(200);
  });

  it('an MCP body from a key that may write nowhere is limited to 1 MiB', async () => {
    const r = post('/mcp', reader, { declared: 8 * 1024 * 1024, send: 1024, headers: { Accept: 'application/json, text/event-stream' } });
    const a = await within(r.answer);
    r.abort();
    expect(a.status).toBe(413);
  });

  it('a malformed % escape in the method is a 400, not a 500', async () => {
    for (const path of ['/api/%E0%A4%A', '/api/%', '/api/search%ZZ']) {
      const a = await within(post(path, OWNER_TOKEN, { body: '{}' }).answer);
      expect(a.status, path).toBe(400);
      expect(a.body.error?.code).toBe('invalid_parameter');
    }
  });
});

describe('the owner token works from this machine only', () => {
  it('is refused from another address, where keys still work', () => {
    const fake = (remoteAddress: string, token: string) =>
      ({ headers: { authorization: `Bearer ${token}` }, socket: { remoteAddress } }) as unknown as IncomingMessage;
    expect(authenticate(fake('127.0.0.1', OWNER_TOKEN), OWNER_TOKEN, keys)).toMatchObject({ kind: 'owner' });
    expect(authenticate(fake('::1', OWNER_TOKEN), OWNER_TOKEN, keys)).toMatchObject({ kind: 'owner' });
    expect(authenticate(fake('::ffff:127.0.0.1', OWNER_TOKEN), OWNER_TOKEN, keys)).toMatchObject({ kind: 'owner' });
    expect(authenticate(fake('192.168.1.20', OWNER_TOKEN), OWNER_TOKEN, keys)).toBeUndefined();
    expect(authenticate(fake('::ffff:10.0.0.3', OWNER_TOKEN), OWNER_TOKEN, keys)).toBeUndefined();
    expect(authenticate(fake('192.168.1.20', reader), OWNER_TOKEN, keys)).toMatchObject({ kind: 'key', name: 'reader' });
    expect(isLoopbackAddress('127.8.9.10')).toBe(true);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });

  const lan = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  it.skipIf(!lan)('over a real socket from a LAN address: 401 for the owner token, 200 for a key', async () => {
    const owner = await within(
      post('/api/listKbs', OWNER_TOKEN, { body: '{}', host: lan!, headers: { Host: `${lan}:${server.port}` } }).answer,
    );
    expect(owner.status).toBe(401);
    const key = await within(post('/api/listKbs', reader, { body: '{}', host: lan!, headers: { Host: `${lan}:${server.port}` } }).answer);
    expect(key.status).toBe(200);
  });
});

describe('one key cannot take the server', () => {
  it('has a limit of requests in progress (429), the owner and other keys do not wait on it', async () => {
    // Three requests of the reader in progress: their bodies are still coming.
    const held = [0, 1, 2].map(() => post('/api/listKbs', reader, { declared: 100, send: 1 }));
    await new Promise((r) => setTimeout(r, 200));
    const fourth = await within(post('/api/listKbs', reader, { body: '{}' }).answer);
    expect(fourth.status).toBe(429);
    expect(fourth.body.error?.code).toBe('busy');
    expect((await within(post('/api/listKbs', writer, { body: '{}' }).answer)).status).toBe(200);
    expect((await within(post('/api/listKbs', OWNER_TOKEN, { body: '{}' }).answer)).status).toBe(200);
    for (const h of held) h.abort();
    await new Promise((r) => setTimeout(r, 200));
    expect((await within(post('/api/listKbs', reader, { body: '{}' }).answer)).status).toBe(200);
  });

  it('uploads one at a time per key here (keyUploads: 1): a second large body waits its turn with 429', async () => {
    const first = post('/api/uploadFile', writer, { declared: 5 * 1024 * 1024, send: 1024 });
    await new Promise((r) => setTimeout(r, 200));
    const second = await within(post('/api/uploadFile', writer, { declared: 2 * 1024 * 1024, send: 1024 }).answer);
    expect(second.status).toBe(429);
    first.abort();
  });

  it('holds at most its share of MCP sessions, and never closes those of another key', async () => {
    const open = async (token: string) => {
      const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      });
      const client = new Client({ name: 'limits', version: '1.0.0' });
      await client.connect(transport);
      return client;
    };
    const others = [await open(writer), await open(writer), await open(writer)];
    const greedy = [];
    for (let i = 0; i < 8; i++) greedy.push(await open(reader));
    expect(server.mcp.sessionsOf(keys.list().find((k) => k.name === 'reader')!.id)).toBe(3);
    for (const c of others) expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    // The greedy key's newest sessions work; its oldest were closed.
    expect((await greedy[7]!.listTools()).tools.length).toBeGreaterThan(0);
    await expect(greedy[0]!.listTools()).rejects.toThrow();
    for (const c of [...others, ...greedy]) await c.close().catch(() => undefined);
  });
});

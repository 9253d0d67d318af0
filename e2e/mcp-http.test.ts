import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../src/core/config/data-dir.js';
import type { Fixture } from '../src/mcp/test-support.js';
import { createKey, httpClient, runCli, seededFixture, startServe, stdioClient, type Served } from './mcp-helpers.js';
import { exerciseAllTools, exerciseReadOnlyKey, exerciseReadYourWrites, payload } from './mcp-suite.js';

let fx: Fixture;
let served: Served;

beforeAll(async () => {
  fx = await seededFixture('ragdesk-e2e-http-');
  served = await startServe(fx.dataDir);
});

afterAll(async () => {
  await served?.stop();
  fx?.cleanup();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${served.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('ragdesk serve: MCP over Streamable HTTP (the real CLI, the official SDK client)', () => {
  it('records the port in the lock and answers /health', async () => {
    const lock = JSON.parse(fs.readFileSync(dataPaths(fx.dataDir).lock, 'utf8')) as { port: number; pid: number };
    expect(lock.port).toBe(served.port);
    expect(lock.pid).toBe(served.proc.pid);
    const health = await fetch(`${served.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
  });

  it('runs every tool and error code with the owner token (sessions)', async () => {
    const { client, close } = await httpClient(served.url, served.token, 'http-suite');
    try {
      await exerciseAllTools(client, 'http');
    } finally {
      await close();
    }
  });

  it('finds what was just written, ranked as a freshly built index would (issue 8 repro)', async () => {
    const created = await post(
      '/api/createKb',
      { kb_id: 'fresh-notes', embedding_model: fx.modelDir },
      { Authorization: `Bearer ${served.token}` },
    );
    expect(created.status).toBe(200);
    const { client, close } = await httpClient(served.url, served.token, 'http-ryw');
    try {
      await exerciseReadYourWrites(client, 'fresh-notes');
    } finally {
      await close();
    }
  });

  it('asks the client to sample over HTTP when it declares sampling (answers stream over SSE), JSON otherwise', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
    });
    const client = new Client({ name: 'sampling-client', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async (): Promise<CreateMessageResult> => ({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: 'Sampled over HTTP [1]' },
    }));
    await client.connect(transport);
    try {
      const res = await client.callTool({ name: 'ask_knowledge_base', arguments: { question: 'What is heart disease?' } });
      expect(res.structuredContent).toMatchObject({ method: 'sampling', answer: 'Sampled over HTTP [1]', not_found: false });
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
    // A client without sampling gets plain JSON answers and the extractive answer.
    const plain = await httpClient(served.url, served.token, 'no-sampling');
    try {
      const res = await plain.client.callTool({ name: 'ask_knowledge_base', arguments: { question: 'What is heart disease?' } });
      expect((res.structuredContent as { method: string }).method).not.toBe('sampling');
    } finally {
      await plain.close();
    }
  });

  it('applies a read-only key: its KBs only, no writes', async () => {
    const key = await createKey(fx.dataDir, 'http-reader', ['--read', 'alpha,beta']);
    const { client, close } = await httpClient(served.url, key);
    try {
      await exerciseReadOnlyKey(client);
    } finally {
      await close();
    }
  });

  it('serves two clients at once', async () => {
    const [a, b] = await Promise.all([httpClient(served.url, served.token, 'a'), httpClient(served.url, served.token, 'b')]);
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).client.callTool({ name: 'search_kb', arguments: { kb_id: 'alpha', query: 'heart disease' } }),
        ),
      );
      for (const r of results) expect(payload<{ hits: unknown[] }>(r).hits.length).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('bridges a stdio `ragdesk mcp` to the running server: both on one data dir, no lock errors', async () => {
    const bridged = await stdioClient(fx.dataDir, { name: 'bridged-client' });
    try {
      const kbs = payload<{ kbs: Array<{ kb_id: string }> }>(await bridged.client.callTool({ name: 'list_accessible_kbs', arguments: {} }));
      expect(kbs.kbs.map((k) => k.kb_id)).toContain('alpha');
      const added = payload(
        await bridged.client.callTool({
          name: 'add_document',
          arguments: { kb_id: 'alpha', doc_id: 'via-bridge', content: 'The city has a train and a road.' },
        }),
      );
      expect(added).toMatchObject({ status: 'added' });
      const { client, close } = await httpClient(served.url, served.token);
      try {
        const doc = payload(await client.callTool({ name: 'get_document', arguments: { kb_id: 'alpha', doc_id: 'via-bridge' } }));
        expect(doc).toMatchObject({ content: expect.stringContaining('train') });
      } finally {
        await close();
      }
      expect(bridged.stderr()).not.toMatch(/busy|in use|lock/i);
      // The owner keeps the activity log, with the stdio client's own name.
      const activity = fs.readFileSync(dataPaths(fx.dataDir).activity, 'utf8');
      expect(activity).toContain('"client":"bridged-client 1.0.0"');
    } finally {
      await bridged.close();
    }
  });

  it('answers busy (not a crash) when told not to bridge while the server owns the data dir', async () => {
    const lonely = await stdioClient(fx.dataDir, { args: ['--no-bridge'] });
    try {
      expect((await lonely.client.listTools()).tools).toHaveLength(13);
      const res = await lonely.client.callTool({ name: 'list_accessible_kbs', arguments: {} });
      expect(res.isError).toBe(true);
      expect(payload(res)).toMatchObject({ code: 'busy', message: expect.stringContaining(String(served.proc.pid)) });
    } finally {
      await lonely.close();
    }
  });

  it('bridges with RAGDESK_API_KEY: the key, not the owner token, decides', async () => {
    const key = await createKey(fx.dataDir, 'bridge-reader', ['--read', 'alpha', 'beta']);
    const bridged = await stdioClient(fx.dataDir, { env: { RAGDESK_API_KEY: key } });
    try {
      await exerciseReadOnlyKey(bridged.client);
    } finally {
      await bridged.close();
    }
  });

  it('rejects missing or bad keys (401), foreign Host or Origin (403)', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const accept = { Accept: 'application/json, text/event-stream' };
    expect((await post('/mcp', init, accept)).status).toBe(401);
    const bad = await post('/mcp', init, { ...accept, Authorization: 'Bearer rdk_wrong' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('Bearer');
    expect((await post('/api/listKbs', {})).status).toBe(401);
    expect((await fetch(`${served.url}/metrics`)).status).toBe(401);
    const evil = await post('/mcp', init, { ...accept, Authorization: `Bearer ${served.token}`, Origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const own = await post('/api/listKbs', {}, { Authorization: `Bearer ${served.token}`, Origin: served.url });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(served.url);
    // DNS rebinding: the right IP under a foreign name.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: served.port, path: '/health', headers: { Host: `evil.example:${served.port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('answers stateless JSON-RPC without a session and the /api contract with status codes', async () => {
    const auth = { Authorization: `Bearer ${served.token}`, Accept: 'application/json, text/event-stream' };
    const res = await post('/mcp', { jsonrpc: '2.0', id: 7, method: 'tools/list' }, auth);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('search_kb');
    const key = await createKey(fx.dataDir, 'api-reader', ['--read', 'alpha']);
    const bearer = { Authorization: `Bearer ${key}` };
    const search = await post('/api/search', { query: 'heart', kb_ids: ['alpha'] }, bearer);
    expect(search.status).toBe(200);
    expect(((await search.json()) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
    const cases: Array<[string, unknown, number, string]> = [
      ['/api/getKb', { kb_id: 'secret' }, 404, 'kb_not_found'],
      ['/api/getDocument', { kb_id: 'alpha', doc_id: 'nope' }, 404, 'document_not_found'],
      ['/api/addDocument', { kb_id: 'alpha', content: 'x' }, 403, 'permission_denied'],
      ['/api/search', { query: '' }, 400, 'invalid_parameter'],
      ['/api/createKb', { kb_id: 'mine' }, 403, 'permission_denied'],
      ['/api/addFile', { kb_id: 'alpha', path: '/etc/passwd' }, 403, 'permission_denied'],
      ['/api/noSuchMethod', {}, 404, 'invalid_parameter'],
    ];
    for (const [path, body, status, code] of cases) {
      const r = await post(path, body, bearer);
      expect(r.status, path).toBe(status);
      expect(await r.json()).toMatchObject({ error: { code, message: expect.any(String) } });
    }
    const owner = { Authorization: `Bearer ${served.token}` };
    const upload = (filename: string, data: Buffer) =>
      post('/api/uploadFile', { kb_id: 'alpha', filename, data_base64: data.toString('base64') }, owner);
    const unsupported = await upload('tool.exe', Buffer.from([0x4d, 0x5a, 0, 0, 1, 2, 3]));
    expect([415]).toContain(unsupported.status);
    expect(await unsupported.json()).toMatchObject({ error: { code: 'unsupported_format' } });
    const corrupt = await upload('broken.pdf', fs.readFileSync(new URL('../src/core/parse/__fixtures__/corrupt.pdf', import.meta.url)));
    expect(corrupt.status).toBe(422);
    expect(await corrupt.json()).toMatchObject({ error: { code: 'parse_failed' } });
  });

  it('exposes Prometheus metrics per tool', async () => {
    const res = await fetch(`${served.url}/metrics`, { headers: { Authorization: `Bearer ${served.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/# TYPE ragdesk_tool_calls_total counter/);
    expect(text).toMatch(/ragdesk_tool_calls_total\{tool="search_kb"\} [1-9]\d*/);
    expect(text).toMatch(/ragdesk_tool_errors_total\{tool="search_kb",code="kb_not_found"\} [1-9]/);
    expect(text).toMatch(/ragdesk_tool_latency_seconds_bucket\{tool="search_kb",le="0.05"\} \d+/);
    expect(text).toMatch(/ragdesk_tool_latency_seconds_count\{tool="list_accessible_kbs"\} \d+/);
    expect(text).toMatch(/ragdesk_api_calls_total\{method="search"\} \d+/);
    expect(text).toMatch(/ragdesk_http_requests_total\{route="\/mcp",status="401"\} \d+/);
  });

  it('manages keys from the CLI while the server runs; revocation applies at once', async () => {
    const key = await createKey(fx.dataDir, 'short-lived', ['--read', 'alpha']);
    const ok = await post('/api/listKbs', {}, { Authorization: `Bearer ${key}` });
    expect(ok.status).toBe(200);
    const list = await runCli(['--data-dir', fx.dataDir, 'keys', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'short-lived', read: ['alpha'] })]));
    expect(list.stdout).not.toContain(key);
    const revoke = await runCli(['--data-dir', fx.dataDir, 'keys', 'revoke', 'short-lived']);
    expect(revoke.code).toBe(0);
    expect((await post('/api/listKbs', {}, { Authorization: `Bearer ${key}` })).status).toBe(401);
  });

  it('stops cleanly on SIGTERM: exit code 0, lock released', async () => {
    expect(await served.stop()).toBe(0);
    expect(fs.existsSync(dataPaths(fx.dataDir).lock)).toBe(false);
  });
});

import fs from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../core/auth/key-store.js';
import { dataPaths } from '../core/config/data-dir.js';
import type { Core } from '../core/core.js';
import { makeFixture, openTestCore, payload, seedKbs, type Fixture } from '../mcp/test-support.js';
import { startHttpServer, type RunningHttpServer } from './server.js';

const OWNER_TOKEN = 'owner-token-for-tests-0123456789';
let fx: Fixture;
let core: Core;
let keys: KeyStore;
let sessions: RunningHttpServer;
let stateless: RunningHttpServer;
let staticDir: string;

beforeAll(async () => {
  fx = await makeFixture('ragdesk-http-');
  core = await openTestCore(fx.dataDir);
  await seedKbs(core, fx.modelDir);
  keys = new KeyStore(dataPaths(fx.dataDir).keys);
  staticDir = path.join(fx.root, 'console');
  fs.mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>ragdesk</title><div id="root"></div>');
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-abcdef12.js'), 'console.log(1)');
  sessions = await startHttpServer({ core, ownerToken: OWNER_TOKEN, port: 0, keys, staticDir, rateLimit: { perSecond: 1, burst: 3 } });
  stateless = await startHttpServer({ core, ownerToken: OWNER_TOKEN, port: 0, keys, stateless: true });
});

afterAll(async () => {
  await sessions?.close();
  await stateless?.close();
  await core?.close();
  fx?.cleanup();
});

async function connect(base: string, token: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'http-unit', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

function rawGet(
  port: number,
  pathname: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP server (in process, real sockets, the SDK client)', () => {
  it('serves MCP with sessions: a session id, then DELETE ends it', async () => {
    const { client, transport } = await connect(sessions.url, OWNER_TOKEN);
    expect(transport.sessionId).toMatch(/[0-9a-f-]{36}/);
    expect(sessions.mcp.sessionCount).toBe(1);
    const res = await client.callTool({ name: 'search_kb', arguments: { kb_id: 'alpha', query: 'heart' } });
    expect(payload<{ hits: unknown[] }>(res).hits.length).toBeGreaterThan(0);
    const sid = transport.sessionId!;
    await transport.terminateSession();
    await client.close();
    expect(sessions.mcp.sessionCount).toBe(0);
    const again = await fetch(`${sessions.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${OWNER_TOKEN}`,
        'Mcp-Session-Id': sid,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(again.status).toBe(404);
  });

  it('serves MCP statelessly to the same SDK client', async () => {
    const { client, transport } = await connect(stateless.url, OWNER_TOKEN);
    try {
      expect(transport.sessionId).toBeUndefined();
      expect((await client.listTools()).tools).toHaveLength(13);
      const res = await client.callTool({ name: 'list_accessible_kbs', arguments: {} });
      expect(payload<{ kbs: unknown[] }>(res).kbs).toHaveLength(3);
      expect(stateless.mcp.sessionCount).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('does not let another key use a session', async () => {
    const { key } = keys.create({ name: 'intruder', read: '*' });
    const { client, transport } = await connect(sessions.url, OWNER_TOKEN);
    try {
      const res = await fetch(`${sessions.url}/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Mcp-Session-Id': transport.sessionId!,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(404);
    } finally {
      await client.close();
    }
  });

  it('limits each key with 429 and Retry-After, never the owner', async () => {
    const { key } = keys.create({ name: 'hasty', read: ['alpha'] });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${sessions.url}/api/listKbs`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: '{}' });
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter = res.headers.get('retry-after');
        expect(await res.json()).toMatchObject({ error: { code: 'busy' } });
      }
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${sessions.url}/api/listKbs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
        body: '{}',
      });
      expect(res.status).toBe(200);
    }
  });

  it('checks Host and Origin before anything, and answers preflight only for its own origin', async () => {
    expect((await rawGet(sessions.port, '/health', { Host: `127.0.0.1:${sessions.port}` })).status).toBe(200);
    expect((await rawGet(sessions.port, '/health', { Host: `localhost:${sessions.port}` })).status).toBe(200);
    expect((await rawGet(sessions.port, '/health', { Host: 'attacker.example' })).status).toBe(403);
    expect((await rawGet(sessions.port, '/', { Host: `rebind.attacker.example:${sessions.port}` })).status).toBe(403);
    const foreign = await fetch(`${sessions.url}/api/listKbs`, { method: 'OPTIONS', headers: { Origin: 'https://attacker.example' } });
    expect(foreign.status).toBe(403);
    const own = await fetch(`${sessions.url}/api/listKbs`, {
      method: 'OPTIONS',
      headers: { Origin: sessions.url, 'Access-Control-Request-Method': 'POST' },
    });
    expect(own.status).toBe(204);
    expect(own.headers.get('access-control-allow-origin')).toBe(sessions.url);
    expect(own.headers.get('access-control-allow-origin')).not.toBe('*');
    expect(own.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('serves the console with a CSP and falls back to index.html for client routes', async () => {
    const index = await fetch(`${sessions.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(index.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('<div id="root">');
    const route = await fetch(`${sessions.url}/kbs/alpha/documents`);
    expect(await route.text()).toContain('<div id="root">');
    const asset = await fetch(`${sessions.url}/assets/app-abcdef12.js`);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${sessions.url}/assets/missing.js`)).status).toBe(404);
    const traversal = await fetch(`${sessions.url}/..%2F..%2F..%2Fetc%2Fpasswd`);
    expect(await traversal.text()).not.toContain('root:');
  });

  it('keeps the hand-over endpoint to the owner, and a server refuses it', async () => {
    const { key } = keys.create({ name: 'not-owner', read: '*' });
    expect((await fetch(`${sessions.url}/internal/handover`, { method: 'POST', headers: { Authorization: `Bearer ${key}` } })).status).toBe(
      403,
    );
    expect(
      (await fetch(`${sessions.url}/internal/handover`, { method: 'POST', headers: { Authorization: `Bearer ${OWNER_TOKEN}` } })).status,
    ).toBe(409);
  });

  it('rejects bodies that are not JSON and methods that are not POST on /api', async () => {
    const bad = await fetch(`${sessions.url}/api/listKbs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
      body: '{nope',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_parameter' } });
    const get = await fetch(`${sessions.url}/api/listKbs`, { headers: { Authorization: `Bearer ${OWNER_TOKEN}` } });
    expect(get.status).toBe(405);
    const kb = await fetch(`${sessions.url}/api/createKb`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
      body: JSON.stringify({ kb_id: 'made-over-http', embedding_model: fx.modelDir }),
    });
    expect(kb.status).toBe(200);
    expect(await kb.json()).toMatchObject({ kb_id: 'made-over-http' });
  });
});

describe('declaresSampling', () => {
  it('reads the sampling capability from an initialize message or batch', async () => {
    const { declaresSampling } = await import('./mcp-route.js');
    const init = (capabilities: object) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'c', version: '1' } },
    });
    expect(declaresSampling(init({ sampling: {} }))).toBe(true);
    expect(declaresSampling(init({}))).toBe(false);
    expect(declaresSampling([init({ sampling: {} })])).toBe(true);
    expect(declaresSampling({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).toBe(false);
  });
});

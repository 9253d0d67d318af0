import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityLog } from '../core/activity/activity-log.js';
import { KeyStore } from '../core/auth/key-store.js';
import type { Principal } from '../core/auth/scope.js';
import { dataPaths } from '../core/config/data-dir.js';
import type { Core } from '../core/core.js';
import { Metrics } from '../core/metrics/metrics.js';
import { makeFixture, memoryClient, openTestCore, payload, seedKbs, type Fixture } from './test-support.js';

let fx: Fixture;
let core: Core;
let keys: KeyStore;
let activity: ActivityLog;
const metrics = new Metrics();

beforeAll(async () => {
  fx = await makeFixture();
  core = await openTestCore(fx.dataDir);
  await seedKbs(core, fx.modelDir);
  keys = new KeyStore(dataPaths(fx.dataDir).keys);
  activity = new ActivityLog(dataPaths(fx.dataDir).activity, 50);
});

afterAll(async () => {
  await core?.close();
  fx?.cleanup();
});

function clientWith(key: string, name = 'perm-test') {
  return memoryClient(core, { principal: () => keys.verify(key), name, recorder: { activity, metrics } });
}

describe('key-scoped MCP access', () => {
  it('a read-only key sees only its KBs and cannot write', async () => {
    const { key } = keys.create({ name: 'reader', read: ['alpha', 'beta'] });
    const { client, close } = await clientWith(key, 'reader-client');
    try {
      const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
      const kbs = payload<{ kbs: Array<{ kb_id: string }> }>(await call('list_accessible_kbs'))
        .kbs.map((k) => k.kb_id)
        .sort();
      expect(kbs).toEqual(['alpha', 'beta']);
      const add = await call('add_document', { kb_id: 'alpha', content: 'music song' });
      expect(add.isError).toBe(true);
      expect(payload(add)).toMatchObject({ code: 'permission_denied' });
      const del = await call('delete_document', { kb_id: 'alpha', doc_id: 'heart' });
      expect(payload(del)).toMatchObject({ code: 'permission_denied' });
      // A KB the key cannot read does not exist for it.
      for (const [tool, args] of [
        ['search_kb', { kb_id: 'secret', query: 'bank' }],
        ['get_kb_info', { kb_id: 'secret' }],
        ['get_document', { kb_id: 'secret', doc_id: 'bank' }],
        ['list_documents', { kb_id: 'secret' }],
        ['add_document', { kb_id: 'secret', content: 'x' }],
        ['ask_knowledge_base', { question: 'bank', kb_id: 'secret' }],
      ] as const) {
        expect(payload(await call(tool, args)), tool).toMatchObject({ code: 'kb_not_found' });
      }
      const all = payload<{ hits: Array<{ kb_id: string }> }>(
        await call('search_all_accessible_kbs', { query: 'bank money report market', mode: 'fts', top_k: 50 }),
      );
      expect(all.hits.every((h) => h.kb_id !== 'secret')).toBe(true);
      const stats = payload<{ kbs: Array<{ kb_id: string }> }>(await call('kb_stats'));
      expect(stats.kbs.map((k) => k.kb_id).sort()).toEqual(['alpha', 'beta']);
      const diag = payload<{ kbs: Array<{ kb_id: string }> }>(await call('kb_diagnostic'));
      expect(diag.kbs.map((k) => k.kb_id).sort()).toEqual(['alpha', 'beta']);
      const { resources } = await client.listResources();
      expect(resources.some((r) => r.uri.includes('secret'))).toBe(false);
      await expect(client.readResource({ uri: 'ragdesk://kb/secret/doc/bank' })).rejects.toThrow(/not found/);
      await expect(client.getPrompt({ name: 'summarize_document', arguments: { kb_id: 'secret', doc_id: 'bank' } })).rejects.toThrow(
        /not found/,
      );
    } finally {
      await close();
    }
  });

  it('a write key adds and deletes in its KB only; "*" covers KBs created later', async () => {
    const { key } = keys.create({ name: 'writer', write: ['beta'] });
    const { client, close } = await clientWith(key);
    try {
      const add = await client.callTool({ name: 'add_document', arguments: { kb_id: 'beta', doc_id: 'w1', content: 'закон и налог' } });
      expect(payload(add)).toMatchObject({ status: 'added' });
      expect(payload(await client.callTool({ name: 'delete_document', arguments: { kb_id: 'beta', doc_id: 'w1' } }))).toMatchObject({
        deleted: true,
      });
      expect(payload(await client.callTool({ name: 'add_document', arguments: { kb_id: 'alpha', content: 'x' } }))).toMatchObject({
        code: 'kb_not_found',
      });
    } finally {
      await close();
    }
    const everything = keys.create({ name: 'all-reader', read: '*' });
    await core.client.createKb({ kb_id: 'later', embedding_model: fx.modelDir });
    const c2 = await clientWith(everything.key);
    try {
      const kbs = payload<{ kbs: Array<{ kb_id: string }> }>(
        await c2.client.callTool({ name: 'list_accessible_kbs', arguments: {} }),
      ).kbs.map((k) => k.kb_id);
      expect(kbs).toContain('later');
    } finally {
      await c2.close();
    }
  });

  it('a revoked key stops working at once', async () => {
    const { key, id } = keys.create({ name: 'temp', read: ['alpha'] });
    const { client, close } = await clientWith(key);
    try {
      expect((await client.callTool({ name: 'list_accessible_kbs', arguments: {} })).isError).toBeFalsy();
      keys.revoke(id);
      expect(payload(await client.callTool({ name: 'list_accessible_kbs', arguments: {} }))).toMatchObject({ code: 'permission_denied' });
    } finally {
      await close();
    }
  });

  it('records each call in the activity log and the metrics without content or keys', async () => {
    const { key } = keys.create({ name: 'logger', write: ['alpha'] });
    const { client, close } = await clientWith(key, 'activity-client');
    const secretText = 'TOP SECRET PAYLOAD '.repeat(20);
    try {
      await client.callTool({
        name: 'add_document',
        arguments: { kb_id: 'alpha', doc_id: 'act', content: secretText, metadata: { api_key: 'rdk_shouldnotappear' } },
      });
      await client.callTool({ name: 'search_kb', arguments: { kb_id: 'alpha', query: 'heart disease' } });
      await client.callTool({ name: 'search_kb', arguments: { kb_id: 'alpha', query: '' } });
      await client.callTool({ name: 'search_kb', arguments: { kb_id: 'alpha', query: 'x', top_k: 'many' } }).catch(() => undefined);
    } finally {
      await close();
    }
    await new Promise((r) => setImmediate(r)); // calls are recorded once their answers are sent
    const { entries } = activity.list({ key_name: 'logger' });
    expect(entries.map((e) => e.tool)).toEqual(['search_kb', 'search_kb', 'search_kb', 'add_document']);
    const [invalid, empty, search, add] = entries;
    expect(invalid).toMatchObject({ error_code: 'invalid_params', client: 'activity-client 1.0.0', transport: 'memory' });
    expect(empty!.error_code).toBe('invalid_parameter');
    expect(search).toMatchObject({ error_code: null, args: { kb_id: 'alpha', query: 'heart disease' } });
    expect(search!.hits).toBeGreaterThan(0);
    expect(search!.latency_ms).toBeGreaterThan(0);
    const raw = JSON.stringify(add);
    expect(raw).not.toContain('TOP SECRET');
    expect(raw).not.toContain('rdk_shouldnotappear');
    expect(add!.args.content).toBe(`[${secretText.length} chars]`);
    const text = metrics.render();
    expect(text).toMatch(/ragdesk_tool_calls_total\{tool="search_kb"\} \d+/);
    expect(text).toMatch(/ragdesk_tool_errors_total\{tool="search_kb",code="invalid_parameter"\} 1/);
    expect(text).toMatch(/ragdesk_tool_latency_seconds_bucket\{tool="search_kb",le="\+Inf"\} \d+/);
  });

  it('lists keys and activity through the contract (owner only)', async () => {
    const list = await core.client.listKeys({});
    expect(list.map((k) => k.name)).toContain('reader');
    expect(JSON.stringify(list)).not.toMatch(/hash|rdk_[A-Za-z0-9_-]{20,}/);
    const created = await core.client.createKey({ name: 'via-contract', read: ['alpha'] });
    expect(created.key).toMatch(/^rdk_/);
    expect(keys.verify(created.key)).toMatchObject({ kind: 'key', name: 'via-contract' } satisfies Partial<Principal>);
    expect(await core.client.revokeKey({ key: 'via-contract' })).toMatchObject({ revoked: true });
    const scoped = core.clientFor({ read: new Set(['alpha']), write: new Set(), owner: false });
    await expect(scoped.listKeys({})).rejects.toMatchObject({ code: 'permission_denied' });
    const act = await core.client.listActivity({ limit: 2 });
    expect(act.entries).toHaveLength(2);
  });
});

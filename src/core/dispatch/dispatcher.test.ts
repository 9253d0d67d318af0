import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract, type OpSpec } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { OWNER_SCOPE, type CallerScope } from '../auth/scope.js';
import type { Core } from '../core.js';
import { CallMetrics } from '../metrics/call-metrics.js';
import { errorCode, fixtureModels, openTestCore, tempDir } from '../test-support.js';
import { PauseGate } from '../util/pause-gate.js';
import { Dispatcher, type Handlers } from './dispatcher.js';
import { metricsMiddleware, pauseMiddleware } from './middleware.js';

const key = (read: string[], write: string[] = []): CallerScope => ({
  owner: false,
  read: new Set([...read, ...write]),
  write: new Set(write),
});

const toy = {
  look: {
    input: z.object({ kb_id: z.string(), n: z.number().default(1) }).strict(),
    output: z.object({ n: z.number() }),
    kind: 'read',
    summary: '',
  },
  put: { input: z.object({ kb_id: z.string() }), output: z.object({ ok: z.boolean() }), kind: 'write', summary: '', ingests: true },
  own: { input: z.object({}), output: z.object({ ok: z.boolean() }), kind: 'admin', summary: '' },
  peek: {
    input: z.object({ path: z.string().optional(), kb_id: z.string().optional() }),
    output: z.object({ ok: z.boolean() }),
    kind: 'read',
    summary: '',
    ownerFields: ['path'],
    keyNeedsKb: true,
  },
  bad: { input: z.object({}), output: z.object({ ok: z.boolean() }), kind: 'read', summary: '' },
} satisfies Record<string, OpSpec>;

function toyDispatcher() {
  const seen: Array<[string, unknown, CallerScope]> = [];
  const handlers: Handlers<typeof toy> = {
    look: async (i, s) => (seen.push(['look', i, s]), { n: i.n }),
    put: async (i, s) => (seen.push(['put', i, s]), { ok: true }),
    own: async (i, s) => (seen.push(['own', i, s]), { ok: true }),
    peek: async (i, s) => (seen.push(['peek', i, s]), { ok: true }),
    bad: async () => ({ ok: 'yes' }) as unknown as { ok: boolean },
  };
  return { d: new Dispatcher(toy, handlers), seen };
}

describe('the dispatcher', () => {
  it('parses once (defaults filled in), hands the scope to the handler and checks the output', async () => {
    const { d, seen } = toyDispatcher();
    expect(await d.dispatch('look', { kb_id: 'a' }, OWNER_SCOPE)).toEqual({ n: 1 });
    expect(seen).toEqual([['look', { kb_id: 'a', n: 1 }, OWNER_SCOPE]]);
    expect(await errorCode(d.dispatch('look', { kb_id: 'a', extra: 1 }, OWNER_SCOPE))).toBe('invalid_parameter');
    expect(await errorCode(d.dispatch('bad', {}, OWNER_SCOPE))).toBe('internal');
    for (const m of ['nope', 'constructor', '__proto__', 'toString'])
      expect(await errorCode(d.dispatch(m, {}, OWNER_SCOPE))).toBe('invalid_parameter');
  });

  it('authorises every call with one policy: kind, owner-only fields and the KBs named', async () => {
    const { d, seen } = toyDispatcher();
    expect(await errorCode(d.dispatch('own', {}, key(['a'], ['a'])))).toBe('permission_denied');
    expect(await errorCode(d.dispatch('look', { kb_id: 'b' }, key(['a'])))).toBe('kb_not_found');
    expect(await errorCode(d.dispatch('put', { kb_id: 'a' }, key(['a'])))).toBe('permission_denied');
    expect(await d.dispatch('put', { kb_id: 'a' }, key([], ['a']))).toEqual({ ok: true });
    expect(await errorCode(d.dispatch('peek', { path: '/etc/passwd', kb_id: 'a' }, key(['a'])))).toBe('permission_denied');
    expect(await errorCode(d.dispatch('peek', {}, key(['a'])))).toBe('permission_denied');
    expect(await d.dispatch('peek', { kb_id: 'a' }, key(['a']))).toEqual({ ok: true });
    expect(await d.dispatch('peek', { path: '/x' }, OWNER_SCOPE)).toEqual({ ok: true });
    expect(seen.map(([m]) => m)).toEqual(['put', 'peek', 'peek']);
  });

  it('runs middleware around the handler, outermost first', async () => {
    const { d } = toyDispatcher();
    const order: string[] = [];
    d.use(async (call, next) => (order.push(`a:${call.method}`), next()));
    const off = d.use(async (_call, next) => (order.push('b'), next()));
    await d.dispatch('look', { kb_id: 'a' }, OWNER_SCOPE);
    off();
    await d.dispatch('look', { kb_id: 'a' }, OWNER_SCOPE);
    expect(order).toEqual(['a:look', 'b', 'a:look']);
  });

  it('counts calls and errors by code per operation, whatever the door', async () => {
    const { d } = toyDispatcher();
    const m = new CallMetrics('t', 'method', 'test');
    d.use(metricsMiddleware(m));
    await d.dispatch('look', { kb_id: 'a' }, OWNER_SCOPE);
    await d.dispatch('bad', {}, OWNER_SCOPE).catch(() => undefined);
    expect(m.calls('look')).toBe(1);
    expect(m.render()).toMatch(/t_errors_total\{method="bad",code="internal"\} 1/);
  });

  it('holds ingest calls while paused, lets reads through, and counts them in flight', async () => {
    const { d, seen } = toyDispatcher();
    const gate = new PauseGate();
    d.use(pauseMiddleware(gate));
    let changes = 0;
    gate.onChange(() => changes++);
    gate.setPaused(true);
    const put = d.dispatch('put', { kb_id: 'a' }, OWNER_SCOPE);
    await d.dispatch('look', { kb_id: 'a' }, OWNER_SCOPE);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.map(([m]) => m)).toEqual(['look']);
    expect(gate.active).toBe(1);
    gate.setPaused(false);
    await put;
    expect(seen.map(([m]) => m)).toEqual(['look', 'put']);
    expect(gate.active).toBe(0);
    expect(changes).toBe(4);
  });

  it('serves the real contract: every operation has a handler', async () => {
    const core = await openTestCore();
    try {
      for (const name of Object.keys(contract)) expect(await errorCode(core.dispatch(name, undefined, OWNER_SCOPE))).not.toBe('internal');
    } finally {
      await core.close();
    }
  });
});

describe('pause reaches background work', () => {
  let core: Core;
  beforeAll(async () => {
    const { model } = await fixtureModels();
    core = await openTestCore();
    await core.client.createKb({ kb_id: 'k', embedding_model: model });
  });
  afterAll(async () => core.close());

  it('a folder sync started while paused writes nothing until resume', async () => {
    const dir = tempDir('ragdesk-paused-');
    for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(dir, `n${i}.txt`), `Note ${i} about harbour cranes.`);
    await core.client.pauseIndexing({ paused: true });
    expect(await core.client.indexingState({})).toEqual({ paused: true, active: 0 });
    const source = await core.client.addSource({ kb_id: 'k', path: dir, sync: false });
    const synced = core.client.syncSource({ source_id: source.source_id, wait: true });
    // Direct adds are held as well, from any door.
    const added = core.client.addDocument({ kb_id: 'k', doc_id: 'typed', content: 'Typed while paused.' });
    await new Promise((r) => setTimeout(r, 600));
    expect((await core.client.listDocuments({ kb_id: 'k' })).total).toBe(0);
    expect((await core.client.indexingState({})).active).toBe(1);
    await core.client.pauseIndexing({ paused: false });
    await Promise.all([synced, added]);
    expect((await core.client.listDocuments({ kb_id: 'k' })).total).toBe(6);
    expect(await errorCode(core.clientFor(key(['k'], ['k'])).pauseIndexing({ paused: true }))).toBe('permission_denied');
  });

  it('refuses, with the same code as every door, what a read-only key may not do', async () => {
    const scoped = core.clientFor(key(['k']));
    await expect(scoped.addDocument({ kb_id: 'k', content: 'x' })).rejects.toBeInstanceOf(RagError);
    expect(await errorCode(scoped.addDocument({ kb_id: 'k', content: 'x' }))).toBe('permission_denied');
    expect(await errorCode(scoped.preview({ content: 'hello' }))).toBe('permission_denied');
    expect((await scoped.preview({ kb_id: 'k', content: 'hello' })).chunks.length).toBe(1);
  });
});

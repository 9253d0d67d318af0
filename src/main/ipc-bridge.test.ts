import { describe, expect, it, vi } from 'vitest';
import { OWNER_SCOPE } from '../core/auth/scope.js';
import { Dispatcher, type Handlers } from '../core/dispatch/dispatcher.js';
import { contract, METHOD_NAMES, type Contract } from '../shared/contract/index.js';
import { DEFAULT_APP_SETTINGS, desktopContract } from '../shared/desktop.js';
import { RagError } from '../shared/errors.js';
import { createIpcBridge, type DesktopHandlers } from './ipc-bridge.js';

/** Reached a handler (the fake ones answer nothing else unless told). */
const REACHED = 'reached the handler';

/**
 * The bridge over the real dispatcher and contract, with handlers that record what reached them: a handler that
 * is not overridden says so with an error, since a made-up result would fail the contract's output check.
 */
function fakeCore(overrides: Partial<Record<string, (input: unknown) => Promise<unknown>>> = {}) {
  const calls: Array<[string, unknown]> = [];
  const handlers = {} as Record<string, (input: unknown) => Promise<unknown>>;
  for (const name of METHOD_NAMES) {
    handlers[name] = async (input: unknown) => {
      calls.push([name, input]);
      const o = overrides[name];
      if (o) return o(input);
      throw new RagError('internal', REACHED);
    };
  }
  const dispatcher = new Dispatcher(contract, handlers as unknown as Handlers<Contract>);
  return { client: (method: string, input: unknown) => dispatcher.dispatch(method, input, OWNER_SCOPE), calls };
}

describe('IPC bridge', () => {
  it('forwards a valid call with the parsed input (defaults applied)', async () => {
    const { client, calls } = fakeCore({ listDocuments: async () => ({ total: 0, documents: [] }) });
    const bridge = createIpcBridge({ dispatch: client });
    const reply = await bridge('listDocuments', { kb_id: 'docs' });
    expect(reply).toEqual({ ok: true, result: { total: 0, documents: [] } });
    expect(calls).toEqual([['listDocuments', { kb_id: 'docs', limit: 100, offset: 0 }]]);
  });

  it('rejects input that breaks the contract schema with invalid_parameter, without calling core', async () => {
    const { client, calls } = fakeCore();
    const bridge = createIpcBridge({ dispatch: client });
    const reply = await bridge('search', { query: '', top_k: 500 });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('invalid_parameter');
    expect(reply.error.message).toMatch(/query must not be empty/);
    expect(reply.error.message).toMatch(/top_k/);
    expect(calls).toEqual([]);
  });

  it('rejects a KB id that could name another table', async () => {
    const { client, calls } = fakeCore();
    const reply = await createIpcBridge({ dispatch: client })('deleteKb', { kb_id: '../../etc' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_parameter' } });
    expect(calls).toEqual([]);
  });

  it('rejects unknown methods, prototype keys and non-string methods', async () => {
    const { client, calls } = fakeCore();
    const bridge = createIpcBridge({ dispatch: client });
    for (const m of ['dropEverything', 'constructor', '__proto__', 'toString', 42, null]) {
      const reply = await bridge(m, {});
      expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_parameter' } });
    }
    expect(calls).toEqual([]);
  });

  it('turns a RagError into its envelope, with details', async () => {
    const { client } = fakeCore({
      getKb: async () => {
        throw new RagError('kb_not_found', 'knowledge base "x" not found', { details: { kb_id: 'x' } });
      },
    });
    const reply = await createIpcBridge({ dispatch: client })('getKb', { kb_id: 'x' });
    expect(reply).toEqual({ ok: false, error: { code: 'kb_not_found', message: 'knowledge base "x" not found', details: { kb_id: 'x' } } });
  });

  it('turns an unexpected exception into `internal` without a stack trace', async () => {
    const { client } = fakeCore({
      listKbs: async () => {
        throw new TypeError('boom');
      },
    });
    const reply = await createIpcBridge({ dispatch: client })('listKbs', {});
    expect(reply).toEqual({ ok: false, error: { code: 'internal', message: 'boom' } });
  });

  it('rejects extra keys on strict inputs', async () => {
    const { client } = fakeCore();
    const reply = await createIpcBridge({ dispatch: client })('listKbs', { evil: true });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_parameter' } });
  });

  it('validates desktop-only operations with their own schemas, and only when they are wired', async () => {
    const { client } = fakeCore();
    const updateSettings = vi.fn(async (patch: object) => ({ ...DEFAULT_APP_SETTINGS, ...patch }));
    const handlers = {
      appInfo: vi.fn(),
      getSettings: vi.fn(async () => DEFAULT_APP_SETTINGS),
      updateSettings,
      setIndexingPaused: vi.fn(),
      openDocumentFile: vi.fn(),
    } as unknown as DesktopHandlers;
    const desktop = new Dispatcher(desktopContract, handlers);
    expect(await createIpcBridge({ dispatch: client })('getSettings', {})).toMatchObject({
      ok: false,
      error: { code: 'invalid_parameter' },
    });
    const bridge = createIpcBridge({ dispatch: client, desktop });
    expect(await bridge('getSettings', {})).toEqual({ ok: true, result: DEFAULT_APP_SETTINGS });
    expect(await bridge('updateSettings', { theme: 'neon' })).toMatchObject({ ok: false, error: { code: 'invalid_parameter' } });
    expect(await bridge('updateSettings', { server: { enabled: true, port: 99999 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_parameter' },
    });
    expect(await bridge('updateSettings', { dataDir: '/x', nodeIntegration: true })).toMatchObject({
      ok: false,
      error: { code: 'invalid_parameter' },
    });
    expect(updateSettings).not.toHaveBeenCalled();
    expect(await bridge('updateSettings', { theme: 'dark' })).toMatchObject({ ok: true, result: { theme: 'dark' } });
  });

  it('works against the real contract for every method name', async () => {
    const { client } = fakeCore();
    const bridge = createIpcBridge({ dispatch: client });
    for (const name of METHOD_NAMES) {
      // `undefined` input is treated as {}: methods with required fields refuse it, the others are called.
      const reply = await bridge(name, undefined);
      expect(reply.ok).toBe(false);
      if (!reply.ok && reply.error.message !== REACHED) expect(reply.error.code).toBe('invalid_parameter');
    }
  });
});

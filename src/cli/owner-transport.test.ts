import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core/core.js';
import { errorCode, openTestCore } from '../core/test-support.js';
import { startHttpServer, type RunningHttpServer } from '../http/server.js';
import { ragClient } from '../shared/contract/index.js';
import { ownerTransport, OwnerUnreachable } from './owner-transport.js';

let core: Core;
let server: RunningHttpServer;
const TOKEN = 'owner-token-for-the-test';

beforeAll(async () => {
  core = await openTestCore();
  server = await startHttpServer({ core, ownerToken: TOKEN, port: 0 });
});

afterAll(async () => {
  await server?.close();
  await core?.close();
});

describe('ownerTransport', () => {
  it('carries the contract to the owner: results, stable error codes, /health', async () => {
    const t = ownerTransport({ pid: process.pid, host: '127.0.0.1', port: server.port, token: TOKEN });
    try {
      const client = ragClient(t.call);
      expect(await client.createKb({ kb_id: 'remote' })).toMatchObject({ kb_id: 'remote' });
      expect((await client.listKbs({})).map((k) => k.kb_id)).toEqual(['remote']);
      expect(await errorCode(client.getKb({ kb_id: 'nope' }))).toBe('kb_not_found');
      expect(await errorCode(client.search({ query: '' }))).toBe('invalid_parameter');
      // A result with an `error` field of its own is a result, not a failure.
      expect(await client.modelChangeStatus({ kb_id: 'remote' })).toMatchObject({ kb_id: 'remote' });
      expect(await client.getProgress({ token: 'nothing-runs-here' })).toBeNull();
      expect((await t.health()).pid).toBe(process.pid);
    } finally {
      t.close();
    }
  });

  it('a wrong token is permission_denied; no owner at the port is OwnerUnreachable', async () => {
    const wrong = ownerTransport({ pid: process.pid, host: '127.0.0.1', port: server.port, token: 'wrong' });
    expect(await errorCode(ragClient(wrong.call).listKbs({}))).toBe('permission_denied');
    wrong.close();
    const gone = ownerTransport({ pid: 1, host: '127.0.0.1', port: 1, token: TOKEN });
    await expect(ragClient(gone.call).listKbs({})).rejects.toBeInstanceOf(OwnerUnreachable);
    await expect(gone.health()).rejects.toBeInstanceOf(OwnerUnreachable);
    gone.close();
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, OWNER_SCOPE } from '../core/auth/scope.js';
import { dataPaths } from '../core/config/data-dir.js';
import { Core } from '../core/core.js';
import type { RagLogger } from '../core/logging/logger.js';
import { fixtureModels, tempDir } from '../core/test-support.js';
import { LocalBackend } from '../mcp/local-backend.js';
import type { AnyTool } from '../mcp/tool-kit.js';
import type { IpcReply } from '../shared/desktop.js';
import { openAppLog } from './app-log.js';
import { createIpcBridge, desktopDispatcher, type DesktopHandlers } from './ipc-bridge.js';
import { LocalServer } from './server.js';

/**
 * The desktop app logs internal errors with their detail in `<data>/logs/app.log`, whichever door they came
 * through (the window's IPC for the contract and for the desktop's own operations, an MCP tool's own code, the
 * local server's /api); every caller gets `internal` with a reference into that log, and no path.
 */

const SECRET = '/home/ann/.config/ragdesk/lance/documents.lance/data/7.lance';
let dir: string;
let core: Core;
let log: RagLogger;
let server: LocalServer;

beforeAll(async () => {
  dir = tempDir('ragdesk-app-log-');
  core = await Core.open({ dataDir: dir, allowDownload: false });
  await core.client.createKb({ kb_id: 'notes', embedding_model: (await fixtureModels()).model });
  log = openAppLog(core);
  server = new LocalServer(core, { logger: log.logger });
  // The store fails the way a broken disk does: its message names files of this machine.
  core.ctx.store.docs.get = async () => {
    throw new Error(`LanceError(IO): ${SECRET}: Input/output error`);
  };
});
afterAll(async () => {
  await server?.stop();
  await core?.close();
  await log?.close().catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});

const refOf = (message: string) => /^internal error \(ref ([0-9a-f]{8})\)/.exec(message)?.[1];

describe('the desktop app’s log of internal errors', () => {
  it('gets the detail from every door; callers get a reference only', async () => {
    const refs: Record<string, string | undefined> = {};
    const failed = (reply: IpcReply) => (reply.ok ? 'no error' : reply.error.message);

    const handlers = {
      appInfo: async () => {
        throw new Error(`ENOENT: no such file or directory, open '${SECRET}'`);
      },
    } as unknown as DesktopHandlers;
    const bridge = createIpcBridge({
      dispatch: (method, input) => core.dispatch(method, input, OWNER_SCOPE),
      desktop: desktopDispatcher(handlers, () => core.logInternalError),
    });
    const contractReply = failed(await bridge('getDocument', { kb_id: 'notes', doc_id: 'a' }));
    refs.ipc = refOf(contractReply);
    const desktopReply = failed(await bridge('appInfo', {}));
    refs.desktop = refOf(desktopReply);

    const tool = {
      name: 'broken_tool',
      input: z.object({}),
      output: z.object({}),
      run: async () => {
        throw new TypeError(`Cannot read properties of undefined (reading 'hits') at ${SECRET}`);
      },
    } as unknown as AnyTool;
    const backend = new LocalBackend({ core: () => core, principal: () => OWNER });
    const toolResult = await backend.callTool(tool, {}, {}, { clientName: null, signal: new AbortController().signal });
    expect(toolResult.isError).toBe(true);
    const toolText = (toolResult.content[0] as { text: string }).text;
    refs.mcp = refOf((JSON.parse(toolText) as { message: string }).message);

    const status = await server.apply(true, 0);
    const res = await fetch(`${status.url}/api/getDocument`, {
      method: 'POST',
      headers: { authorization: `Bearer ${core.lock!.info.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kb_id: 'notes', doc_id: 'a' }),
    });
    expect(res.status).toBe(500);
    const apiText = await res.text();
    refs.api = refOf((JSON.parse(apiText) as { error: { message: string } }).error.message);

    for (const answer of [contractReply, desktopReply, toolText, apiText]) expect(answer).not.toContain('/home/ann');
    expect(refs).toEqual({
      ipc: expect.stringMatching(/^[0-9a-f]{8}$/),
      desktop: expect.stringMatching(/^[0-9a-f]{8}$/),
      mcp: expect.stringMatching(/^[0-9a-f]{8}$/),
      api: expect.stringMatching(/^[0-9a-f]{8}$/),
    });

    await log.close();
    const lines = fs
      .readFileSync(path.join(dataPaths(dir).logs, 'app.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ref?: string; method?: string; err?: string; level: number });
    for (const [door, ref] of Object.entries(refs)) {
      const entry = lines.find((l) => l.ref === ref);
      expect(entry, door).toBeDefined();
      expect(entry!.err, door).toContain(SECRET);
      expect(entry!.level).toBe(50);
    }
    expect(lines.find((l) => l.ref === refs.desktop)).toMatchObject({ method: 'appInfo', err: expect.stringContaining('ENOENT') });
    expect(lines.find((l) => l.ref === refs.mcp)!.err).toContain('TypeError');
    expect(fs.readFileSync(path.join(dataPaths(dir).logs, 'app.log'), 'utf8')).not.toContain(core.lock!.info.token);
  });
});

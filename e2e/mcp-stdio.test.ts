import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../src/core/config/data-dir.js';
import type { Fixture } from '../src/mcp/test-support.js';
import { createKey, seededFixture, stdioClient } from './mcp-helpers.js';
import { Core } from '../src/core/core.js';
import { exerciseAllTools, exerciseReadOnlyKey, exerciseReadYourWrites, expectCode, payload } from './mcp-suite.js';

let fx: Fixture;

beforeAll(async () => {
  fx = await seededFixture('ragdesk-e2e-stdio-');
});

afterAll(() => fx?.cleanup());

describe('ragdesk mcp over stdio (the real CLI, the official SDK client)', () => {
  it('answers initialize and tools/list, then runs every tool and error code', async () => {
    const { client, close, stderr } = await stdioClient(fx.dataDir, { name: 'stdio-suite' });
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'ragdesk' });
      expect(client.getInstructions()).toContain('list_accessible_kbs');
      await exerciseAllTools(client, 'stdio');
    } catch (err) {
      throw new Error(`${String(err)}\n--- server stderr ---\n${stderr()}`);
    } finally {
      await close();
    }
    // The activity log names the client and keeps no document content.
    const lines = fs
      .readFileSync(dataPaths(fx.dataDir).activity, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      lines.some((l) => l.tool === 'search_kb' && l.client === 'stdio-suite 1.0.0' && l.key_name === 'owner' && l.transport === 'stdio'),
    ).toBe(true);
    expect(fs.readFileSync(dataPaths(fx.dataDir).activity, 'utf8')).not.toContain('Trees grow in the forest');
  });

  it('rehearses one search once warm, so the first real call finds it done; nothing records the rehearsal', async () => {
    const paths = dataPaths(fx.dataDir);
    const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '');
    const logFrom = read(path.join(paths.logs, 'mcp.log')).length;
    const activityBefore = read(paths.activity);
    const { client, close, stderr } = await stdioClient(fx.dataDir, { name: 'rehearsal' });
    try {
      await client.listTools();
      const deadline = Date.now() + 60_000;
      let log = '';
      while (!(log = read(path.join(paths.logs, 'mcp.log')).slice(logFrom)).includes('search rehearsal done')) {
        if (Date.now() > deadline) throw new Error(`no rehearsal in the log:\n${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(read(paths.activity)).toBe(activityBefore);
    } catch (err) {
      throw new Error(`${String(err)}\n--- server stderr ---\n${stderr()}`);
    } finally {
      await close();
    }
  });

  it('leaves no error behind when the client goes while the search rehearsal runs', async () => {
    const logFile = path.join(dataPaths(fx.dataDir).logs, 'mcp.log');
    const logFrom = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').length : 0;
    const logged = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(logFrom) : '');
    const { client, close, stderr } = await stdioClient(fx.dataDir, { name: 'hasty' });
    try {
      await client.listTools();
      // The rehearsal starts once the warm-up is done: the client leaves at that moment.
      const deadline = Date.now() + 60_000;
      while (!logged().includes('search warm-up done')) {
        if (Date.now() > deadline) throw new Error(`no warm-up in the log:\n${logged()}`);
        await new Promise((r) => setTimeout(r, 2));
      }
    } finally {
      await close();
    }
    const log = logged();
    expect(log).toContain('ragdesk mcp (stdio) stopped');
    const errors = log.split('\n').filter((l) => /"level":(50|60)/.test(l));
    expect(errors, errors.join('\n')).toEqual([]);
    expect(stderr()).not.toContain('internal error');
  });

  it('finds what was just written, ranked as a freshly built index would (issue 8 repro)', async () => {
    const core = await Core.open({ dataDir: fx.dataDir, allowDownload: false });
    await core.client.createKb({ kb_id: 'fresh-notes', embedding_model: fx.modelDir });
    await core.close();
    const { client, close, stderr } = await stdioClient(fx.dataDir, { name: 'ryw' });
    try {
      await exerciseReadYourWrites(client, 'fresh-notes');
    } catch (err) {
      throw new Error(`${String(err)}\n--- server stderr ---\n${stderr()}`);
    } finally {
      await close();
    }
  });

  it('limits a session to the key in RAGDESK_API_KEY', async () => {
    const key = await createKey(fx.dataDir, 'stdio-reader', ['--read', 'alpha', 'beta']);
    const { client, close } = await stdioClient(fx.dataDir, { env: { RAGDESK_API_KEY: key } });
    try {
      await exerciseReadOnlyKey(client);
    } finally {
      await close();
    }
    const bad = await stdioClient(fx.dataDir, { env: { RAGDESK_API_KEY: 'rdk_not-a-real-key' } });
    try {
      expect((await bad.client.listTools()).tools.length).toBe(13);
      await expectCode(bad.client, 'list_accessible_kbs', {}, 'permission_denied');
    } finally {
      await bad.close();
    }
  });

  it('runs two stdio clients at once on one data dir: the second bridges to the first', async () => {
    let firstPid = 0;
    const first = await stdioClient(fx.dataDir, { name: 'first' });
    const second = await stdioClient(fx.dataDir, { name: 'second' });
    try {
      await first.client.callTool({ name: 'list_accessible_kbs', arguments: {} });
      const owner = JSON.parse(fs.readFileSync(dataPaths(fx.dataDir).lock, 'utf8')) as { port: number | null; pid: number };
      expect(owner.port).toBeGreaterThan(0);
      firstPid = owner.pid;
      const [a, b] = await Promise.all([
        first.client.callTool({ name: 'add_document', arguments: { kb_id: 'beta', doc_id: 'from-first', content: 'закон и налоги' } }),
        second.client.callTool({ name: 'add_document', arguments: { kb_id: 'beta', doc_id: 'from-second', content: 'импорт и экспорт' } }),
      ]);
      expect(payload(a)).toMatchObject({ status: 'added' });
      expect(payload(b)).toMatchObject({ status: 'added' });
      const docs = payload<{ documents: Array<{ doc_id: string }> }>(
        await second.client.callTool({ name: 'list_documents', arguments: { kb_id: 'beta' } }),
      );
      expect(docs.documents.map((d) => d.doc_id)).toEqual(expect.arrayContaining(['from-first', 'from-second']));
      expect(second.stderr()).not.toMatch(/busy|lock/i);
      // The owner goes away: the bridged one takes the data dir over and keeps answering.
      await first.close();
      const afterRes = await second.client.callTool({ name: 'list_documents', arguments: { kb_id: 'beta' } });
      const after = payload<{ total: number }>(afterRes);
      expect(after.total).toBeGreaterThanOrEqual(3);
      const lock = JSON.parse(fs.readFileSync(dataPaths(fx.dataDir).lock, 'utf8')) as { pid: number };
      expect(lock.pid).not.toBe(firstPid);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

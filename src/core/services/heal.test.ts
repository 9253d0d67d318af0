import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { buildFixtureModel } from '../embed/fixture-model.js';
import { createModelManager } from '../embed/model-manager.js';
import { sendJson, startFakeServer, type FakeServer } from '../embed/remote/test-servers.js';
import { eventually, FIXTURES, openTestCore, tempDir } from '../test-support.js';

/**
 * Heal while running (issue 8, item 8), on the real Core: chunks stored without vectors get them while the
 * server runs, when the remote endpoint recovers (the circuit's half-open probe) or the local model arrives.
 */

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function waiting(core: Core, kbId: string): Promise<number> {
  const table = (await core.ctx.store.chunks(kbId))!;
  return table.dim === 0 ? table.count() : table.count('vector IS NULL');
}

describe('chunks stored without vectors', () => {
  it('get them once a remote endpoint recovers: the half-open probe succeeds and the backfill starts, no restart', async () => {
    const server: FakeServer = await startFakeServer({ dim: 16 });
    cleanup.push(() => server.close());
    const models = createModelManager({
      dataDir: tempDir(),
      allowDownload: false,
      remote: { failureThreshold: 1, cooldownMs: 300, retries: 0, backgroundRetryMs: 100 },
    });
    const core = await openTestCore({ models });
    cleanup.push(() => core.close());
    core.warmUp();
    const model = `ollama:heal@${server.url}`;
    await core.client.createKb({ kb_id: 'remote', embedding_model: model });
    expect(
      (await core.client.addDocument({ kb_id: 'remote', doc_id: 'up', content: 'Written while the endpoint answers.' })).embedded,
    ).toBe(true);

    server.always = (_req, res) => sendJson(res, 503, { error: 'overloaded' });
    const down = await core.client.addDocument({ kb_id: 'remote', doc_id: 'down', content: 'Lighthouse keepers log the fog horn.' });
    expect(down).toMatchObject({ status: 'added', embedded: false });
    expect(down.warnings?.join(' ')).toMatch(/without vectors/);
    await core.client.addDocument({ kb_id: 'remote', doc_id: 'down2', content: 'Second note while the endpoint is down.' });
    expect(await waiting(core, 'remote')).toBe(2);
    // Full-text search finds them meanwhile.
    expect((await core.client.search({ kb_ids: ['remote'], query: 'lighthouse fog', mode: 'fts' })).hits[0]?.doc_id).toBe('down');

    const before = server.requests.length;
    server.always = undefined;
    await eventually(async () => expect(await waiting(core, 'remote')).toBe(0), 30_000);
    expect(server.requests.length).toBeGreaterThan(before);
    const hits = await core.client.search({ kb_ids: ['remote'], query: 'lighthouse keepers fog horn', mode: 'vector', top_k: 1 });
    expect(hits.hits[0]?.doc_id).toBe('down');
  }, 60_000);

  it('get them once a local model arrives (downloaded or imported, then loaded), no restart', async () => {
    const core = await openTestCore();
    cleanup.push(() => core.close());
    core.warmUp();
    const dir = path.join(tempDir('ragdesk-late-model-'), 'late');
    await core.client.createKb({ kb_id: 'late', embedding_model: dir });
    const r = await core.client.addDocument({ kb_id: 'late', doc_id: 'n', content: 'Harbour pilots board ships at the breakwater.' });
    expect(r.embedded).toBe(false);
    expect(await waiting(core, 'late')).toBe(1);
    await buildFixtureModel(dir);
    await core.client.loadModel({ model: dir });
    await eventually(async () => expect(await waiting(core, 'late')).toBe(0), 30_000);
    expect(core.ctx.store.registry.get('late').embedding_dim).toBe(64);
    const hits = await core.client.search({ kb_ids: ['late'], query: 'harbour pilots', mode: 'vector', top_k: 1 });
    expect(hits.hits[0]?.doc_id).toBe('n');
  }, 60_000);
});

describe('writes while a local model cannot be had', () => {
  it('ask for it once, not once per write, and use it as soon as it has loaded', async () => {
    const core = await openTestCore();
    cleanup.push(() => core.close());
    const dir = path.join(tempDir('ragdesk-absent-model-'), 'absent');
    await core.client.createKb({ kb_id: 'absent', embedding_model: dir });
    // Each attempt to load the model that fails reports it (here: missing on disk, downloads off).
    const failed: string[] = [];
    core.ctx.models.onProgress((e) => {
      if (e.model === dir && (e.state === 'missing' || e.state === 'error')) failed.push(e.state);
    });
    for (const n of [1, 2, 3]) {
      const r = await core.client.addDocument({ kb_id: 'absent', doc_id: `n${n}`, content: `Note ${n} on harbour pilots.` });
      expect(r).toMatchObject({ status: 'added', embedded: false });
    }
    // Each write used to try, and each try of a model that is not on disk was a download where downloads are on.
    expect(failed).toEqual(['missing']);
    await buildFixtureModel(dir);
    await core.client.loadModel({ model: dir });
    const late = await core.client.addDocument({ kb_id: 'absent', doc_id: 'n4', content: 'Written once the model has loaded.' });
    expect(late.embedded).toBe(true);
    expect(failed).toEqual(['missing']);
  }, 60_000);
});

describe('files uploaded or added one by one', () => {
  it('appear in the health report like files from ragdesk add, failures included', async () => {
    const core = await openTestCore();
    cleanup.push(() => core.close());
    await core.client.createKb({ kb_id: 'h' });
    const upload = (file: string, name = file) =>
      core.client.uploadFile({ kb_id: 'h', filename: name, data_base64: fs.readFileSync(path.join(FIXTURES, file)).toString('base64') });
    await upload('sample.md', 'dropped/sample.md');
    await expect(upload('encrypted.pdf')).rejects.toMatchObject({ code: 'parse_failed' });
    await upload('sample.md', 'again/sample-copy.md');
    await core.client.addFile({ kb_id: 'h', path: path.join(FIXTURES, 'sample.pdf') });
    const report = await core.client.healthReport({ kb_id: 'h' });
    const by = Object.fromEntries(report.files.map((f) => [f.file, f]));
    expect(by['dropped/sample.md']).toMatchObject({ status: 'ok', indexed: true, source_id: null, doc_id: 'sample.md' });
    expect(by['encrypted.pdf']).toMatchObject({ status: 'encrypted', indexed: false });
    expect(by['again/sample-copy.md']).toMatchObject({ status: 'duplicate', duplicate_of: 'sample.md', indexed: false });
    expect(by[path.join(FIXTURES, 'sample.pdf')]).toMatchObject({ status: 'ok', indexed: true, parser: 'pdf' });
    expect(report.counts).toMatchObject({ ok: 2, encrypted: 1, duplicate: 1 });
  }, 60_000);
});

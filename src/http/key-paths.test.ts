import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../core/auth/key-store.js';
import { dataPaths } from '../core/config/data-dir.js';
import { Core } from '../core/core.js';
import { makeFixture, payload, type Fixture } from '../mcp/test-support.js';
import { startHttpServer, type RunningHttpServer } from './server.js';

/**
 * What a key learns about this machine's folders from ingestion reports, through the real server: the health
 * report, the jobs and the MCP diagnostic name files by their path in their source folder (a file added directly
 * by its name), never the data dir, the models folder or where a source folder lives; the owner sees full paths.
 */

const OWNER_TOKEN = 'owner-token-for-key-path-tests-0123456789';
let fx: Fixture;
let core: Core;
let server: RunningHttpServer;
let reader: string;
let folder: string;
let outside: string;

async function api<T = Record<string, unknown>>(method: string, token: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}/api/${method}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

beforeAll(async () => {
  fx = await makeFixture('ragdesk-key-paths-');
  // Small enough that a 40 KB file is refused with its size: that message names the file's absolute path.
  core = await Core.open({ dataDir: fx.dataDir, allowDownload: false, maxFileBytes: 32 * 1024 });
  await core.client.createKb({ kb_id: 'alpha', embedding_model: fx.modelDir });
  folder = path.join(fx.root, 'private', 'handbook');
  fs.mkdirSync(path.join(folder, 'policies'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'policies', 'returns.md'), '# Returns\n\nReturns are accepted within thirty days.');
  fs.copyFileSync(path.join('src/core/parse/__fixtures__/encrypted.pdf'), path.join(folder, 'policies', 'locked.pdf'));
  fs.writeFileSync(path.join(folder, 'huge.txt'), 'cranes '.repeat(6000));
  await core.client.addSource({ kb_id: 'alpha', path: folder, source_id: 'hb' });
  outside = path.join(fx.root, 'elsewhere');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'big-direct.txt'), 'harbour '.repeat(6000));
  fs.writeFileSync(path.join(outside, 'note.txt'), 'A note added by the owner from another folder.');
  fs.copyFileSync(path.join('src/core/parse/__fixtures__/corrupt.pdf'), path.join(outside, 'corrupt.pdf'));
  await core.client.addFiles({ kb_id: 'alpha', paths: [outside] });
  const keys = new KeyStore(dataPaths(fx.dataDir).keys);
  reader = keys.create({ name: 'reader', read: ['alpha'] }).key;
  server = await startHttpServer({ core, ownerToken: OWNER_TOKEN, port: 0, keys, rateLimit: false });
});

afterAll(async () => {
  await server?.close();
  await core?.close();
  fx?.cleanup();
});

/** Every folder of this test lives under fx.root (the data dir, the model, the source, the added files). */
const expectNoFolders = (seen: unknown) => {
  const text = JSON.stringify(seen);
  for (const secret of [fx.root, fx.dataDir, fx.modelDir, folder, outside, 'private', 'elsewhere']) expect(text).not.toContain(secret);
};

interface Entry {
  file: string;
  status: string;
  message: string;
  source_id: string | null;
}

describe('a key reads ingestion reports without this machine’s folders', () => {
  it('healthReport over /api: source files by their path in the folder, direct files by name; the owner sees full paths', async () => {
    const owner = await api<{ embedding_model: string; files: Entry[] }>('healthReport', OWNER_TOKEN, { kb_id: 'alpha' });
    expect(owner.status).toBe(200);
    expect(owner.body.embedding_model).toBe(fx.modelDir);
    expect(owner.body.files.map((f) => f.file)).toContain(path.join(outside, 'big-direct.txt'));
    expect(owner.body.files.find((f) => f.file.endsWith('big-direct.txt'))!.message).toContain(outside);

    const seen = await api<{ embedding_model: string; files: Entry[] }>('healthReport', reader, { kb_id: 'alpha' });
    expect(seen.status).toBe(200);
    expectNoFolders(seen.body);
    expect(seen.body.embedding_model).toBe(path.basename(fx.modelDir));
    const byFile = Object.fromEntries(seen.body.files.map((f) => [f.file, f]));
    expect(Object.keys(byFile).sort()).toEqual(
      ['big-direct.txt', 'corrupt.pdf', 'huge.txt', 'note.txt', 'policies/locked.pdf', 'policies/returns.md'].sort(),
    );
    expect(byFile['policies/locked.pdf']).toMatchObject({ status: 'encrypted', source_id: 'hb' });
    expect(byFile['corrupt.pdf']).toMatchObject({ status: 'corrupt', source_id: null });
    // The refusal still says what happened, naming the file but not where it is.
    expect(byFile['big-direct.txt']).toMatchObject({
      status: 'too_large',
      message: expect.stringMatching(/^big-direct\.txt is \d+ bytes/),
    });
    expect(byFile['huge.txt']).toMatchObject({ status: 'too_large' });
  });

  it('listJobs over /api and kb_diagnostic over MCP show a key no folder; getProgress is the owner’s', async () => {
    const owner = await api<{ jobs: Array<{ kind: string }> }>('listJobs', OWNER_TOKEN, {});
    expect(owner.body.jobs.map((j) => j.kind).sort()).toEqual(['files', 'sync']);
    const jobs = await api<{ jobs: Array<{ kind: string }> }>('listJobs', reader, {});
    expect(jobs.status).toBe(200);
    expect(jobs.body.jobs.map((j) => j.kind).sort()).toEqual(['files', 'sync']);
    expectNoFolders(jobs.body);

    const progress = await api<{ error: { code: string } }>('getProgress', reader, { token: 'anything-at-all' });
    expect(progress.status).toBe(403);
    expect(progress.body.error.code).toBe('permission_denied');

    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${reader}` } },
    });
    const client = new Client({ name: 'key-paths', version: '1.0.0' });
    await client.connect(transport);
    try {
      const diag = payload<{ ingestion: Array<{ kb_id: string; problems: Entry[] }> }>(
        await client.callTool({ name: 'kb_diagnostic', arguments: {} }),
      );
      expect(diag.ingestion[0]!.problems.map((p) => p.file)).toContain('big-direct.txt');
      expectNoFolders(diag);
    } finally {
      await client.close();
    }
  });
});

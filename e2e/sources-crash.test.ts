import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../src/core/core.js';
import { fixtureModels, tempDir } from '../src/core/test-support.js';
import { json, ragdesk, ROOT } from './cli-support.js';

const FILES = 1000;
let dataDir: string;
let folder: string;
const cli = (...args: string[]) => ragdesk(['--data-dir', dataDir, ...args]);

function itemLines(): Array<{ t: string; i: number; outcome: string }> {
  const dir = path.join(dataDir, 'jobs');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as { t: string; i: number; outcome: string }];
      } catch {
        return [];
      }
    })
    .filter((l) => l.t === 'item');
}

beforeAll(async () => {
  const { model } = await fixtureModels();
  dataDir = tempDir('ragdesk-crash-');
  folder = tempDir('ragdesk-crash-files-');
  for (let i = 0; i < FILES; i++) {
    const sub = path.join(folder, `part-${i % 10}`);
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `note-${i}.txt`), `Note ${i}: the crane at berth ${i % 37} moved container ${i * 7919} before noon.`);
  }
  expect((await cli('kb', 'create', 'big', '--model', model)).code).toBe(0);
}, 120_000);

afterAll(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('a 1,000-file sync killed with SIGKILL', () => {
  it('resumes on restart: every file present exactly once, finished files not embedded again', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'src/cli/index.ts'),
        '--data-dir',
        dataDir,
        'sources',
        'add',
        'big',
        folder,
        '--id',
        'big',
        '--json',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, RAGDESK_OFFLINE: '1' },
        stdio: 'ignore',
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Kill it once a few batches are in, well before the end.
    const deadline = Date.now() + 90_000;
    while (itemLines().length < 150) {
      if (Date.now() > deadline) throw new Error('the sync never got going');
      await new Promise((r) => setTimeout(r, 25));
    }
    child.kill('SIGKILL');
    await exited;
    const before = itemLines().length;
    expect(before).toBeGreaterThanOrEqual(150);
    expect(before).toBeLessThan(FILES);

    const jobs = json<Array<{ state: string; progress: { files_done: number; files_total: number } }>>(await cli('jobs', 'list', '--json'));
    expect(jobs[0]).toMatchObject({ state: 'interrupted', progress: { files_total: FILES, files_done: before } });

    const r = await cli('sources', 'sync', 'big', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = json<{ summary: { files: number; failed: number } }>(r);
    expect(out.summary).toMatchObject({ files: FILES, failed: 0 });

    // Every file settled once across both runs; each was added (embedded) once: a file finished before the kill
    // was not looked at again, one written but not yet journaled came out `unchanged` (no embedding).
    const lines = itemLines();
    expect(lines).toHaveLength(FILES);
    expect(new Set(lines.map((l) => l.i)).size).toBe(FILES);
    expect(lines.filter((l) => l.outcome === 'added').length + lines.filter((l) => l.outcome === 'unchanged').length).toBe(FILES);

    const core = await Core.open({ dataDir, allowDownload: false });
    try {
      const docs = await core.ctx.store.docs.listAll('big');
      expect(docs).toHaveLength(FILES);
      expect(new Set(docs.map((d) => d.doc_id)).size).toBe(FILES);
      const table = (await core.ctx.store.chunks('big'))!;
      const chunkCount = docs.reduce((n, d) => n + d.chunk_count, 0);
      expect(await table.count()).toBe(chunkCount);
      // One version of each document's chunks, the one its row names.
      const versions = await table.docVersions();
      expect(versions).toHaveLength(FILES);
      const owned = await core.ctx.store.docs.versions('big');
      expect(versions.every((v) => owned.get(v.doc_id) === v.version)).toBe(true);
      const hits = await core.client.search({ kb_ids: ['big'], query: `container ${999 * 7919}`, mode: 'fts', top_k: 3 });
      expect(hits.hits[0]!.doc_id).toBe('big/part-9/note-999.txt');
    } finally {
      await core.close();
    }
    const listed = json<Array<{ state: string; counts: { indexed: number } }>>(await cli('sources', 'list', '--json'));
    expect(listed[0]).toMatchObject({ state: 'idle', counts: { indexed: FILES } });
  }, 240_000);
});

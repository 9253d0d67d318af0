import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataPaths } from '../config/data-dir.js';
import { Core } from '../core.js';
import { AddSourceInputSchema } from '../../shared/contract/index.js';
import { eventually, fixtureModels, tempDir } from '../test-support.js';
import { ingestFilesJob } from './files-job.js';
import { JobHandle } from './journal.js';

function folderOf(n: number, prefix: string): string {
  const dir = tempDir('ragdesk-jobs-');
  for (let i = 0; i < n; i++)
    fs.writeFileSync(
      path.join(dir, `${prefix}-${String(i).padStart(3, '0')}.txt`),
      `${prefix} record ${i}: pallet ${i * 31} left dock ${i % 9}.`,
    );
  return dir;
}

describe('jobs that survive restarts', () => {
  it('a quit mid-sync plus a half-written document: the next start repairs, resumes and leaves each file once', async () => {
    const { model } = await fixtureModels();
    const dataDir = tempDir();
    const dir = folderOf(300, 'r');
    let core = await Core.open({ dataDir, allowDownload: false });
    await core.client.createKb({ kb_id: 'k', embedding_model: model });
    await core.sources.add(AddSourceInputSchema.parse({ kb_id: 'k', path: dir, source_id: 's' }), false);
    // Stop after the first batch, as quitting the app would.
    await core.sources.sync('s', {}, false, (job) => {
      job.stop = 'close';
    });
    const [job] = (await core.client.listJobs({ active: true })).jobs;
    expect(job).toMatchObject({ kind: 'sync', source_id: 's', progress: { files_total: 300 } });
    expect(job!.progress.files_done).toBeGreaterThan(0);
    expect(job!.progress.files_done).toBeLessThan(300);
    // ...and the process died while writing the next document: its chunks are in, its row is not.
    const table = (await core.ctx.store.chunks('k'))!;
    fs.writeFileSync(path.join(dataPaths(dataDir).lance, '.writing-k'), '999999');
    const base = {
      version: 'v-crash',
      title: 'Half',
      source: 'r-299.txt',
      parser: 'text',
      page: null,
      heading_path: null,
      line_start: null,
      line_end: null,
      char_start: 0,
      char_end: 10,
      tokens: 3,
      metadata: '{}',
      created_at: '2026-01-01',
      updated_at: '2026-01-01',
      meta: {},
      vector: null,
    };
    await table.add([
      { ...base, chunk_id: 's/r-299.txt#v-crash#0', doc_id: 's/r-299.txt', chunk_index: 0, text: 'half written', fts: 'half written' },
    ]);
    await core.close();

    core = await Core.open({ dataDir, allowDownload: false, watchSources: true });
    try {
      await eventually(async () => expect((await core.client.listJobs({ active: true })).jobs).toEqual([]), 30_000);
      const jobs = (await core.client.listJobs({})).jobs;
      expect(jobs[jobs.length - 1]).toMatchObject({ state: 'done', resumed: 1, progress: { files_done: 300, files_total: 300 } });
      const docs = await core.ctx.store.docs.listAll('k');
      expect(docs).toHaveLength(300);
      const chunks = (await core.ctx.store.chunks('k'))!;
      expect(await chunks.count()).toBe(300);
      expect(await chunks.count("doc_id = 's/r-299.txt'")).toBe(1);
      expect(await chunks.count("version = 'v-crash'")).toBe(0);
    } finally {
      await core.close();
    }
  });

  it('a file job (ragdesk add) stopped mid-way is resumed by the next long-running start', async () => {
    const { model } = await fixtureModels();
    const dataDir = tempDir();
    const dir = folderOf(150, 'f');
    let core = await Core.open({ dataDir, allowDownload: false });
    await core.client.createKb({ kb_id: 'k', embedding_model: model });
    const targets = fs.readdirSync(dir).map((f) => ({ file: path.join(dir, f), doc_id: f }));
    const { outcomes } = await ingestFilesJob(core, 'k', targets, { groupSize: 32, onProgress: (job) => void (job.stop = 'close') });
    expect(outcomes.length).toBeLessThan(150);
    await core.close();
    core = await Core.open({ dataDir, allowDownload: false, watchSources: true });
    try {
      await eventually(async () => expect(await core.ctx.store.docs.count('k')).toBe(150), 30_000);
      await eventually(
        async () => expect((await core.client.listJobs({}))!.jobs[0]).toMatchObject({ kind: 'files', state: 'done', resumed: 1 }),
        30_000,
      );
    } finally {
      await core.close();
    }
  });

  it('cancels a job; reads journals with a torn last line', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'job-x.jsonl');
    const header = {
      t: 'job' as const,
      job_id: 'job-x',
      kind: 'files' as const,
      kb_id: 'k',
      source_id: null,
      created_at: new Date().toISOString(),
      options: { overwrite: false, force: false },
      items: [0, 1, 2].map((i) => ({
        key: `f${i}`,
        file: `/f${i}`,
        doc_id: `f${i}`,
        source: `/f${i}`,
        action: 'index' as const,
        bytes: 10,
      })),
    };
    const job = JobHandle.create(file, header);
    job.settle([{ t: 'item', i: 0, outcome: 'added', chunks: 2, record: null }]);
    fs.appendFileSync(file, '{"t":"item","i":1,"outc');
    const loaded = JobHandle.load(file)!;
    expect(loaded.state).toBe('interrupted');
    expect(loaded.pending()).toEqual([1, 2]);
    // The lines read back are handed once to the run that resumes the job (to re-apply to the ledger).
    expect(loaded.takeReplay().map((l) => [l.i, l.outcome, l.chunks])).toEqual([[0, 'added', 2]]);
    expect(loaded.takeReplay()).toEqual([]);
    expect(loaded.progress()).toMatchObject({ files_done: 1, files_total: 3, chunks: 2, bytes_done: 10, bytes_total: 30 });
    const core = await Core.open({ dataDir: tempDir(), allowDownload: false });
    try {
      await core.client.createKb({ kb_id: 'k' });
      const j = core.jobs.create({ ...header, items: header.items });
      expect((await core.client.cancelJob({ job_id: j.id })).state).toBe('cancelled');
      await expect(core.client.cancelJob({ job_id: 'nope' })).rejects.toMatchObject({ code: 'invalid_parameter' });
    } finally {
      await core.close();
    }
  });
});

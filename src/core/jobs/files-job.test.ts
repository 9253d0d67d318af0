import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestCore, tempDir } from '../test-support.js';
import { ingestFilesJob } from './files-job.js';
import { JobHandle } from './journal.js';

describe('ingestFilesJob', () => {
  it("records every file's size in the order given (a missing one as 0)", async () => {
    const core = await openTestCore();
    try {
      await core.client.createKb({ kb_id: 'k' });
      const dir = tempDir('ragdesk-files-job-');
      // 150 files, each a different size, given in an order of their own.
      const targets = Array.from({ length: 150 }, (_, i) => {
        const file = path.join(dir, `n-${String(149 - i).padStart(3, '0')}.txt`);
        fs.writeFileSync(file, `note ${i}: ${'pallet '.repeat(i + 1)}`);
        return { file, doc_id: path.basename(file) };
      });
      targets.splice(70, 0, { file: path.join(dir, 'gone.txt'), doc_id: 'gone.txt' });
      const { job_id, outcomes } = await ingestFilesJob({ ctx: core.ctx, jobs: core.jobs, health: core.health }, 'k', targets);
      const job = (await core.client.listJobs({})).jobs.find((j) => j.job_id === job_id)!;
      const sizes = targets.map((t) => (fs.existsSync(t.file) ? fs.statSync(t.file).size : 0));
      expect(job.progress).toMatchObject({ files_total: 151, files_done: 151, bytes_total: sizes.reduce((a, b) => a + b, 0) });
      // Each item's size is its own file's (the journal's header, read back).
      const journal = JobHandle.load(path.join(core.jobs.dir, `${job_id}.jsonl`))!;
      expect(journal.header.items.map((it) => [it.file, it.bytes])).toEqual(targets.map((t, k) => [t.file, sizes[k]]));
      expect(outcomes.map((o) => o.file)).toEqual(targets.map((t) => t.file));
      expect(outcomes.filter((o) => !o.ok).map((o) => o.doc_id)).toEqual(['gone.txt']);
    } finally {
      await core.close();
    }
  });
});

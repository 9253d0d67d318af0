import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Core } from '../core.js';
import { eventually, fixtureModels, tempDir } from '../test-support.js';

/** A files job over `count` short notes (note-00.txt…) for KB `k`. */
function notesJob(core: Core, count: number) {
  const dir = tempDir('ragdesk-runner-');
  const files = Array.from({ length: count }, (_, i) => {
    const file = path.join(dir, `note-${String(i).padStart(2, '0')}.txt`);
    fs.writeFileSync(file, `Note ${i}: crate ${i * 7} of pallet ${i * 31} waits at dock ${i % 3} for customs.`);
    return file;
  });
  const job = core.jobs.create({
    kind: 'files',
    kb_id: 'k',
    source_id: null,
    options: { overwrite: false, force: false },
    items: files.map((f) => ({
      key: f,
      file: f,
      doc_id: path.basename(f),
      source: f,
      action: 'index' as const,
      bytes: fs.statSync(f).size,
    })),
  });
  return { files, job };
}

describe('runJob', () => {
  it('parses, chunks and embeds the next files while a batch waits to be written, and journals the batches in order', async () => {
    const { model } = await fixtureModels();
    const core = await Core.open({ dataDir: tempDir(), allowDownload: false });
    try {
      await core.client.createKb({ kb_id: 'k', embedding_model: model });
      const { files, job } = notesJob(core, 5);
      // Another writer holds the KB, so the first batch (notes 0 and 1) waits to be written.
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      let holding = () => {};
      const entered = new Promise<void>((r) => (holding = r));
      const other = core.ctx.store.write('k', async () => {
        holding();
        await held;
      });
      await entered;
      const embedded: string[] = [];
      core.ctx.events.on('ingest', (e) => {
        if (e.stage === 'embed' && e.doc_id) embedded.push(e.doc_id);
      });
      const run = core.jobs.run(core.ctx, job, { ledger: core.health.ledger('k', null), mirror: false, groupSize: 2 });
      try {
        // Notes 2 and 3 are read, parsed, chunked and embedded meanwhile, and note 4 read; taking turns, the loop
        // would wait at note 1 for the first batch's write.
        await eventually(async () => expect(files.indexOf(job.current ?? '')).toBeGreaterThanOrEqual(4));
        // Both batches are embedded before the first is written. Which batch reaches its embedding first is not
        // fixed (each first checks the documents table for duplicates; a loaded CI run saw notes 2 and 3 first);
        // within a batch, documents go in file order.
        await eventually(async () => expect([...embedded].sort()).toEqual(['note-00.txt', 'note-01.txt', 'note-02.txt', 'note-03.txt']));
        expect(embedded.indexOf('note-00.txt')).toBeLessThan(embedded.indexOf('note-01.txt'));
        expect(embedded.indexOf('note-02.txt')).toBeLessThan(embedded.indexOf('note-03.txt'));
        expect(job.done.size).toBe(0);
      } finally {
        release();
      }
      await other;
      await run;
      expect(job.state).toBe('done');
      const settled = fs
        .readFileSync(job.file, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as { t: string; i?: number; outcome?: string })
        .filter((l) => l.t === 'item');
      expect(settled.map((l) => [l.i, l.outcome])).toEqual([0, 1, 2, 3, 4].map((i) => [i, 'added']));
      expect(await core.ctx.store.docs.count('k')).toBe(5);
    } finally {
      await core.close();
    }
  });

  it("starts loading the KB's model before the first file is read, not when the first batch is ready for it", async () => {
    const { model } = await fixtureModels();
    const core = await Core.open({ dataDir: tempDir(), allowDownload: false });
    try {
      await core.client.createKb({ kb_id: 'k', embedding_model: model });
      const { job } = notesJob(core, 3);
      // The file the job was at when the model was asked for (null: none yet).
      const askedAt: Array<string | null> = [];
      const models = core.ctx.models;
      const getEmbedder = models.getEmbedder.bind(models);
      models.getEmbedder = (m, o) => {
        askedAt.push(job.current);
        return getEmbedder(m, o);
      };
      // One batch for all three notes: without the early load the model is first asked for at the third note.
      await core.jobs.run(core.ctx, job, { ledger: core.health.ledger('k', null), mirror: false, groupSize: 100 });
      expect(job.state).toBe('done');
      expect(askedAt[0]).toBeNull();
      expect(await core.ctx.store.docs.count('k')).toBe(3);
      expect((await core.client.search({ query: 'pallet customs', kb_ids: ['k'], mode: 'vector', top_k: 3 })).hits).toHaveLength(3);
    } finally {
      await core.close();
    }
  });

  it('keeps the documents table compacted while a long job writes it (upkeep waits for the job)', async () => {
    const core = await Core.open({ dataDir: tempDir(), allowDownload: false });
    try {
      await core.client.createKb({ kb_id: 'k' });
      const { job } = notesJob(core, 80);
      // One document a batch: 80 appends to the documents table while the job runs.
      const waiting: number[] = [];
      const counts: Array<Promise<void>> = [];
      await core.jobs.run(core.ctx, job, {
        ledger: core.health.ledger('k', null),
        mirror: false,
        groupSize: 1,
        onSettle: () => void counts.push(core.ctx.store.docs.smallFragments().then((n) => void waiting.push(n))),
      });
      await Promise.all(counts);
      expect(waiting.length).toBeGreaterThanOrEqual(80);
      // Without compaction along the job they would pile up to 80 (upkeep waits for the job's end).
      expect(Math.max(...waiting)).toBeLessThanOrEqual(33);
      expect(await core.ctx.store.docs.count('k')).toBe(80);
    } finally {
      await core.close();
    }
  });
});

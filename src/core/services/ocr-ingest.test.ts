import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { ingestFilesJob } from '../jobs/files-job.js';
import { OcrLanguageStore } from '../ocr/lang-store.js';
import { DEBIAN_TESSDATA, haveTessdata, ocrFixturePath } from '../ocr/test-support.js';
import { openTestCore, tempDir } from '../test-support.js';
import type { IngestEvent } from './context.js';

// Scans through the real ingestion: parse pool workers render and OCR page by page, the text goes into LanceDB
// with page numbers, full-text search finds it. The KB's model is not available offline: full-text only.
const hasData = haveTessdata(['rus', 'chi_sim']);

describe.runIf(hasData)('scans and images become searchable', () => {
  let core: Core;
  const events: IngestEvent[] = [];

  beforeAll(async () => {
    core = await openTestCore();
    // Russian and Chinese through the import path users take; English ships with the app.
    const store = new OcrLanguageStore({ modelsDir: path.join(core.dataDir, 'models'), allowDownload: false });
    expect(store.importFrom(DEBIAN_TESSDATA, ['rus', 'chi_sim']).imported).toHaveLength(2);
    core.ctx.events.on('ingest', (e) => events.push(e));
  });
  afterAll(async () => core?.close());

  const search = async (kb: string, query: string) => (await core.client.search({ kb_ids: [kb], query, mode: 'fts', top_k: 3 })).hits;

  it('a scan added directly: each page read in its language, cited by page, with OCR recorded on the document', async () => {
    await core.client.createKb({ kb_id: 'scans' });
    const added = await core.client.addFile({ kb_id: 'scans', path: ocrFixturePath('scan-ru-zh.pdf') });
    expect(added).toMatchObject({ status: 'added', parser: 'pdf' });
    expect(added.chunk_count).toBeGreaterThan(0);
    const ru = await search('scans', 'складской комплекс');
    expect(ru[0]).toMatchObject({ doc_id: 'scan-ru-zh.pdf', location: { page: 1 } });
    const zh = await search('scans', '叉车司机');
    expect(zh[0]).toMatchObject({ doc_id: 'scan-ru-zh.pdf', location: { page: 2 } });
    const doc = await core.client.getDocument({ kb_id: 'scans', doc_id: 'scan-ru-zh.pdf' });
    expect(doc.metadata).toMatchObject({ page_count: 2, ocr_pages: [1, 2], ocr_languages: ['rus', 'chi_sim'] });
    expect(doc.metadata.ocr_confidence).toBeGreaterThan(0.8);
    // OCR results are filterable like any metadata: e.g. documents read by OCR with high confidence.
    const filtered = await core.client.search({ kb_ids: ['scans'], query: 'складской', mode: 'fts', filter: { ocr_confidence__gte: 0.8 } });
    expect(filtered.hits.length).toBeGreaterThan(0);
  });

  it("a folder job reads images in the KB's languages beside the other files, reports pages, and the health report shows OCR", async () => {
    await core.client.createKb({ kb_id: 'photos', languages: ['ru', 'zh'] });
    const dir = tempDir('ragdesk-photos-');
    for (const f of ['scan-ru.png', 'photo-zh.jpg']) fs.copyFileSync(ocrFixturePath(f), path.join(dir, f));
    fs.writeFileSync(path.join(dir, 'note.txt'), 'Pallets are counted against the shipping notice before put-away.');
    events.length = 0;
    const settled: string[] = [];
    const { outcomes } = await ingestFilesJob(
      core,
      'photos',
      ['scan-ru.png', 'photo-zh.jpg', 'note.txt'].map((f) => ({ file: path.join(dir, f), doc_id: f })),
      { onFile: (o) => settled.push(o.doc_id) },
    );
    expect(outcomes.map((o) => [o.doc_id, o.ok, o.status])).toEqual([
      ['scan-ru.png', true, 'added'],
      ['photo-zh.jpg', true, 'added'],
      ['note.txt', true, 'added'],
    ]);
    // The text file after the scans did not wait for their OCR.
    expect(settled[0]).toBe('note.txt');
    expect((await search('photos', 'водители погрузчиков'))[0]).toMatchObject({ doc_id: 'scan-ru.png', location: { page: 1 } });
    expect((await search('photos', '报关行'))[0]).toMatchObject({ doc_id: 'photo-zh.jpg', location: { page: 1 } });
    const ocr = events.filter((e) => e.stage === 'ocr' && e.kb_id === 'photos');
    expect(ocr.map((e) => [e.doc_id, e.page, e.pages])).toEqual([
      ['scan-ru.png', 1, 1],
      ['photo-zh.jpg', 1, 1],
    ]);
    const report = await core.client.healthReport({ kb_id: 'photos' });
    for (const entry of report.files) {
      if (entry.file.endsWith('note.txt')) continue;
      expect(entry).toMatchObject({ status: 'ok', parser: 'image', ocr_pages: 1, indexed: true });
      expect(entry.ocr_confidence).toBeGreaterThan(0.7);
      expect(entry.message).toMatch(/1 page read by OCR \(mean confidence \d+%\)/);
    }
  });

  it('cancelling a job stops its scan at the next page; the file is left for a resumed run', async () => {
    await core.client.createKb({ kb_id: 'stop' });
    let pages = 0;
    const run = ingestFilesJob(core, 'stop', [{ file: ocrFixturePath('scan-en.pdf'), doc_id: 'scan-en.pdf' }], {
      onProgress: (job) => {
        if (job.ocr && job.ocr.done >= 1 && !job.stop) {
          pages = job.ocr.done;
          expect(job.toJob().progress.current_ocr).toEqual({ file: ocrFixturePath('scan-en.pdf'), done: 1, total: 2 });
          void core.jobs.cancel(job.id);
        }
      },
    });
    const { job_id, outcomes } = await run;
    expect(pages).toBe(1);
    expect(outcomes).toEqual([]);
    expect(core.jobs.get(job_id).toJob().state).toBe('cancelled');
    expect((await core.client.listDocuments({ kb_id: 'stop' })).documents).toEqual([]);
  });
});

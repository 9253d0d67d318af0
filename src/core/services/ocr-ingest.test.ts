import fs from 'node:fs';
import path from 'node:path';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hit } from '../../shared/contract/index.js';
import type { Core } from '../core.js';
import { ingestFilesJob } from '../jobs/files-job.js';
import { toImagePdf, type RenderedPage } from '../ocr/fixture-pages.js';
import { OcrLanguageStore } from '../ocr/lang-store.js';
import { DEBIAN_TESSDATA, haveTessdata, ocrFixture, ocrFixturePath } from '../ocr/test-support.js';
import { openTestCore, tempDir } from '../test-support.js';
import type { IngestEvent } from './context.js';

// Scans through the real ingestion: parse pool workers render and OCR page by page, the text goes into LanceDB
// with page numbers, full-text search finds it. The KB's model is not available offline: full-text only.
const hasData = haveTessdata(['rus', 'chi_sim']);

/** The hit's chunk lies on `page` (a chunk may run over several pages: page..page_end). */
function onPage(hit: Hit | undefined, doc: string, page: number): boolean {
  if (!hit || hit.doc_id !== doc || hit.location.page === undefined) return false;
  return hit.location.page <= page && page <= (hit.location.page_end ?? hit.location.page);
}

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
    // Small chunks: one per page.
    await core.client.createKb({ kb_id: 'scans', chunking: { strategy: 'sentence', chunk_size: 64, chunk_overlap: 0 } });
    const added = await core.client.addFile({ kb_id: 'scans', path: ocrFixturePath('scan-ru-zh.pdf') });
    expect(added).toMatchObject({ status: 'added', parser: 'pdf' });
    expect(added.chunk_count).toBeGreaterThan(1);
    expect(onPage((await search('scans', 'складской комплекс'))[0], 'scan-ru-zh.pdf', 1)).toBe(true);
    const zh = (await search('scans', '叉车司机'))[0];
    expect(zh?.location).toMatchObject({ page: 2 });
    const doc = await core.client.getDocument({ kb_id: 'scans', doc_id: 'scan-ru-zh.pdf' });
    expect(doc.metadata).toMatchObject({ page_count: 2, ocr_pages: [1, 2], ocr_languages: ['rus', 'chi_sim'] });
    expect(doc.metadata.ocr_confidence).toBeGreaterThan(0.8);
    // OCR results are filterable like any metadata: e.g. documents read by OCR with high confidence.
    const filtered = await core.client.search({ kb_ids: ['scans'], query: 'складской', mode: 'fts', filter: { ocr_confidence__gte: 0.8 } });
    expect(filtered.hits.length).toBeGreaterThan(0);
  });

  it("a folder job reads images in the KB's languages, reports pages, and the health report shows OCR", async () => {
    await core.client.createKb({ kb_id: 'photos', languages: ['ru', 'zh'] });
    const dir = tempDir('ragdesk-photos-');
    for (const f of ['scan-ru.png', 'photo-zh.jpg']) fs.copyFileSync(ocrFixturePath(f), path.join(dir, f));
    events.length = 0;
    const { outcomes } = await ingestFilesJob(
      core,
      'photos',
      ['scan-ru.png', 'photo-zh.jpg'].map((f) => ({ file: path.join(dir, f), doc_id: f })),
    );
    expect(outcomes.map((o) => [o.doc_id, o.ok, o.status])).toEqual([
      ['scan-ru.png', true, 'added'],
      ['photo-zh.jpg', true, 'added'],
    ]);
    expect(onPage((await search('photos', 'водители погрузчиков'))[0], 'scan-ru.png', 1)).toBe(true);
    expect(onPage((await search('photos', '报关行'))[0], 'photo-zh.jpg', 1)).toBe(true);
    const ocr = events.filter((e) => e.stage === 'ocr' && e.kb_id === 'photos');
    expect(ocr.map((e) => [e.doc_id, e.page, e.pages]).sort()).toEqual([
      ['photo-zh.jpg', 1, 1],
      ['scan-ru.png', 1, 1],
    ]);
    const report = await core.client.healthReport({ kb_id: 'photos' });
    expect(report.files).toHaveLength(2);
    for (const entry of report.files) {
      expect(entry).toMatchObject({ status: 'ok', parser: 'image', ocr_pages: 1, indexed: true });
      expect(entry.ocr_confidence).toBeGreaterThan(0.7);
      expect(entry.message).toMatch(/1 page read by OCR \(mean confidence \d+%\)/);
    }
  });

  it('an upload followed with a progress token reports its OCR pages', async () => {
    await core.client.createKb({ kb_id: 'upload', languages: ['ru'] });
    const data_base64 = fs.readFileSync(ocrFixturePath('scan-ru.png')).toString('base64');
    const result = await core.client.uploadFile({ kb_id: 'upload', filename: 'scan-ru.png', data_base64, progress_token: 'upload-ocr-1' });
    expect(result).toMatchObject({ status: 'added', parser: 'image' });
    expect(await core.client.getProgress({ token: 'upload-ocr-1' })).toEqual({
      stage: 'ocr',
      done: 1,
      total: 1,
      detail: 'scan-ru.png',
      finished: true,
    });
  });

  it('a long scan does not hold up the file after it; cancelling the job stops the scan at its next page', async () => {
    await core.client.createKb({ kb_id: 'long', languages: ['ru'] });
    // A 6-page scan (the Russian page six times) and a text file after it.
    const img = await loadImage(Buffer.from(ocrFixture('scan-ru.png')));
    const canvas = createCanvas(img.width, img.height);
    canvas.getContext('2d').drawImage(img, 0, 0);
    const page: RenderedPage = { canvas, width: img.width, height: img.height, dpi: 300, truth: '' };
    const dir = tempDir('ragdesk-long-');
    fs.writeFileSync(path.join(dir, 'long-scan.pdf'), toImagePdf(Array.from({ length: 6 }, () => page)));
    fs.writeFileSync(path.join(dir, 'note.txt'), 'Pallets are counted against the shipping notice before put-away.');
    let pagesWhenNoteSettled = -1;
    let current: { done: number; total: number } | undefined;
    let cancelled = false;
    // Once the text file is written (while the scan is still being read) and the scan has reported a page, the job
    // is cancelled. (The text file may be read, parsed and written before the scan's first page: read-ahead.ts.)
    const cancelWhenBoth = () => {
      if (cancelled || pagesWhenNoteSettled < 0 || !current) return;
      cancelled = true;
      const running = core.jobs.list({ kb_id: 'long', active: true, limit: 1 }).jobs[0]!;
      void core.jobs.cancel(running.job_id);
    };
    const { job_id, outcomes } = await ingestFilesJob(
      core,
      'long',
      ['long-scan.pdf', 'note.txt'].map((f) => ({ file: path.join(dir, f), doc_id: f })),
      {
        onProgress: (job) => {
          if (job.ocr) current = job.toJob().progress.current_ocr;
          cancelWhenBoth();
        },
        onFile: (o) => {
          if (o.doc_id !== 'note.txt') return;
          pagesWhenNoteSettled = current?.done ?? 0;
          cancelWhenBoth();
        },
      },
    );
    expect(outcomes.map((o) => [o.doc_id, o.status])).toEqual([['note.txt', 'added']]);
    expect(pagesWhenNoteSettled).toBeLessThan(6);
    expect(current?.total).toBe(6);
    expect(core.jobs.get(job_id).toJob().state).toBe('cancelled');
    expect((await core.client.listDocuments({ kb_id: 'long' })).documents.map((d) => d.doc_id)).toEqual(['note.txt']);
  });
});

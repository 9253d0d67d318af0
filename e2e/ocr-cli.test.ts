import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_TESSDATA, haveTessdata, ocrFixturePath } from '../src/core/ocr/test-support.js';
import { fixtureModels, tempDir } from '../src/core/test-support.js';
import { json, ragdesk } from './cli-support.js';
import { stdioClient } from './mcp-helpers.js';

// A folder of image-only PDFs and photos in English, Russian and Chinese becomes searchable through the CLI, with
// page citations. Language data: English ships with ragdesk; Russian and Chinese are imported from Debian's
// tesseract-ocr-rus / tesseract-ocr-chi-sim (.ci/run installs them). Nothing is downloaded (RAGDESK_OFFLINE).
const hasData = haveTessdata(['rus', 'chi_sim']);

interface Hits {
  hits: Array<{ doc_id: string; location: { page?: number; page_end?: number } }>;
}

/** Which document and page(s) a hit cites: `doc p.N` or `doc pp.N-M`. */
const cites = (h: Hits['hits'][number] | undefined) =>
  h ? `${h.doc_id} p.${h.location.page}${h.location.page_end ? `-${h.location.page_end}` : ''}` : 'no hit';

describe.runIf(hasData)('scans through the CLI', () => {
  let dataDir: string;
  let folder: string;
  const cli = (...args: string[]) => ragdesk(['--data-dir', dataDir, ...args]);

  beforeAll(async () => {
    const { model } = await fixtureModels();
    dataDir = tempDir('ragdesk-ocr-cli-');
    folder = tempDir('ragdesk-scans-');
    for (const f of ['scan-en.pdf', 'scan-ru-zh.pdf', 'photo-zh.jpg', 'scan-ru.png'])
      fs.copyFileSync(ocrFixturePath(f), path.join(folder, f));
    // Small chunks, so that each page has its own.
    const created = await cli(
      'kb',
      'create',
      'scans',
      '--model',
      model,
      '--strategy',
      'sentence',
      '--chunk-size',
      '64',
      '--chunk-overlap',
      '0',
    );
    expect(created.code).toBe(0);
  }, 120_000);

  it('says which OCR languages are here, and imports the others from a folder', async () => {
    const before = json<{ allow_download: boolean; languages: Array<{ code: string; state: string }> }>(
      await cli('models', 'ocr', 'status', '--json'),
    );
    expect(before.allow_download).toBe(false);
    expect(before.languages.map((l) => `${l.code}:${l.state}`)).toEqual(['eng:ready', 'rus:missing', 'chi_sim:missing']);
    const text = await cli('models', 'ocr');
    expect(text.stdout).toMatch(/downloads are off: import them with ragdesk models import <folder>/);
    // The same import as for model folders: a folder of .traineddata files is OCR language data.
    const imported = await cli('models', 'import', DEBIAN_TESSDATA, '--languages', 'ru,zh');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/imported OCR language rus /);
    expect(imported.stdout).toMatch(/imported OCR language chi_sim /);
    const after = json<{ languages: Array<{ code: string; state: string }> }>(await cli('models', 'ocr', '--json'));
    expect(after.languages.map((l) => `${l.code}:${l.state}`)).toEqual(['eng:ready', 'rus:ready', 'chi_sim:ready']);
  }, 180_000);

  it('adds the folder and finds a phrase of every page, citing the page', async () => {
    const added = await cli('add', folder, '--kb', 'scans', '--json');
    expect(added.code, added.stderr).toBe(0);
    expect(json<{ added: number; failed: number }>(added)).toMatchObject({ added: 4, failed: 0 });
    const cases: Array<[string, string, number]> = [
      ['cold storage warehouse', 'scan-en.pdf', 1],
      ['customs bonded area', 'scan-en.pdf', 2],
      ['складской комплекс', 'scan-ru-zh.pdf', 1],
      ['叉车司机', 'scan-ru-zh.pdf', 2],
      ['водители погрузчиков', 'scan-ru.png', 1],
      ['报关行', 'photo-zh.jpg', 1],
    ];
    for (const [query, doc, page] of cases) {
      const r = json<Hits>(await cli('search', query, '--kb', 'scans', '--mode', 'fts', '--json'));
      expect(cites(r.hits[0]), query).toBe(`${doc} p.${page}`);
    }
    const plain = await cli('search', 'customs bonded area', '--kb', 'scans', '--mode', 'fts');
    expect(plain.stdout).toMatch(/p\.2/);
  }, 300_000);

  it('an agent finds the scans over MCP (stdio), with the page to cite', async () => {
    const mcp = await stdioClient(dataDir);
    try {
      const res = await mcp.client.callTool({ name: 'search_kb', arguments: { kb_id: 'scans', query: '叉车司机', mode: 'fts', top_k: 3 } });
      const hits = (res.structuredContent as Hits).hits;
      expect(cites(hits[0])).toBe('scan-ru-zh.pdf p.2');
    } finally {
      await mcp.close();
    }
  });

  it('reports OCR in the health report', async () => {
    const report = json<{ files: Array<{ file: string; status: string; ocr_pages?: number; ocr_confidence?: number }> }>(
      await cli('health', '--kb', 'scans', '--json'),
    );
    const pages = Object.fromEntries(report.files.map((f) => [path.basename(f.file), f.ocr_pages]));
    expect(pages).toEqual({ 'scan-en.pdf': 2, 'scan-ru-zh.pdf': 2, 'photo-zh.jpg': 1, 'scan-ru.png': 1 });
    for (const f of report.files) {
      expect(f.status).toBe('ok');
      expect(f.ocr_confidence).toBeGreaterThan(0.7);
    }
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHUNKING } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { estimateTokenCounter } from '../chunk/estimate.js';
import type { ChunkDraft } from '../chunk/index.js';
import { chunkDocument } from '../chunk/index.js';
import { wordCounter } from '../chunk/test-support.js';
import { buildFixtureModel } from '../embed/fixture-model.js';
import { resolveModelSpec } from '../embed/model-spec.js';
import { loadModelTokenCounter } from '../embed/token-counter.js';
import { loadPdfJs, pdfParser, WARNING_NO_TEXT_LAYER } from './pdf-parser.js';
import { ROW_GROUP_TOKENS } from './table-markdown.js';
import { blockWith, expectConsistent, fixture } from './test-support.js';

const parse = (name: string) => pdfParser.parse({ data: fixture(name), filename: name });

async function parseError(name: string): Promise<RagError> {
  const err = await parse(name).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RagError);
  return err as RagError;
}

describe('pdf parser', () => {
  it('extracts each page with its page number (sample.pdf)', async () => {
    const doc = await parse('sample.pdf');
    expectConsistent(doc);
    expect(doc.parser).toBe('pdf');
    expect(doc.metadata.page_count).toBe(3);
    expect(doc.title).toBe('Shipping and Returns Handbook');
    expect(blockWith(doc, 'Incoterms FOB Shanghai').page).toBe(1);
    expect(blockWith(doc, 'thirty days of delivery').page).toBe(2);
    expect(blockWith(doc, 'UN38.3').page).toBe(3);
    expect(new Set(doc.blocks.map((b) => b.page))).toEqual(new Set([1, 2, 3]));
    // Text runs are joined into lines with their spaces.
    expect(doc.text).toContain('All export orders ship under Incoterms FOB Shanghai unless the contract names');
    expect(doc.warnings).toEqual([]);
  });

  it('recognises headings by font size and carries the heading path', async () => {
    const doc = await parse('sample.pdf');
    expect(doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.text, b.page])).toEqual([
      ['Shipping Terms', 1],
      ['Returns Policy', 2],
      ['Product Safety', 3],
    ]);
    expect(blockWith(doc, 'Rotterdam').heading_path).toEqual(['Returns Policy']);
  });

  it('extracts Cyrillic text on the right pages (russian.pdf)', async () => {
    const doc = await parse('russian.pdf');
    expectConsistent(doc);
    expect(doc.metadata.page_count).toBe(2);
    expect(blockWith(doc, 'Таможенная декларация подаётся').page).toBe(1);
    expect(blockWith(doc, 'таможенной пошлины').page).toBe(2);
    expect(doc.text).toMatch(/Таможня проверяет документы в течение четырёх часов/);
  });

  it('extracts Chinese text without spurious spaces (chinese.pdf)', async () => {
    const doc = await parse('chinese.pdf');
    expectConsistent(doc);
    expect(blockWith(doc, '所有进口货物必须在到港前向海关申报').page).toBe(1);
    expect(blockWith(doc, '客户可以在收货后三十天内申请退货').page).toBe(2);
    expect(doc.blocks.find((b) => b.text === '退货政策')).toMatchObject({ kind: 'heading', page: 2 });
  });

  it('reads CJK radicals of the text layer as their ideographs (chinese-radicals.pdf: Chromium, Noto Sans CJK SC)', async () => {
    // The font shares glyphs between radicals and ideographs, so pdf.js itself reads radicals.
    const { pdfjs } = await loadPdfJs();
    const raw = await pdfjs.getDocument({ data: new Uint8Array(fixture('chinese-radicals.pdf')), verbosity: 0 }).promise;
    const rawText = ((await (await raw.getPage(2)).getTextContent()).items as Array<{ str?: string }>).map((i) => i.str ?? '').join('');
    await raw.destroy();
    expect(rawText).toContain('⿅特丹'); // Kangxi Radicals
    expect(rawText).toContain('⻔到⻔'); // CJK Radicals Supplement
    const doc = await parse('chinese-radicals.pdf');
    expectConsistent(doc);
    expect(doc.text).not.toMatch(/[\u2e80-\u2fdf]/);
    expect(blockWith(doc, '从上海到鹿特丹的海运大约需要三十天。').page).toBe(2);
    expect(blockWith(doc, '电子产品和汽车零件用集装箱运输，门到门服务由长江航运公司提供。').page).toBe(2);
    expect(blockWith(doc, '冷藏箱里的鱼和马肉要在港口检验。').page).toBe(2);
    expect(blockWith(doc, '所有进口货物必须在到港前向海关申报').page).toBe(1);
  });

  it('flags a scanned PDF without a text layer', async () => {
    const doc = await parse('scanned.pdf');
    expect(doc.blocks).toEqual([]);
    expect(doc.metadata.page_count).toBe(1);
    expect(doc.warnings).toContain(WARNING_NO_TEXT_LAYER);
  });

  it('fails clearly on a password-protected PDF', async () => {
    const err = await parseError('encrypted.pdf');
    expect(err.code).toBe('parse_failed');
    expect(err.message).toContain('encrypted.pdf');
    expect(err.details).toMatchObject({ reason: 'encrypted', file: 'encrypted.pdf' });
    expect(err.cause).toBeDefined();
  });

  it('fails clearly on a corrupt PDF', async () => {
    const err = await parseError('corrupt.pdf');
    expect(err.code).toBe('parse_failed');
    expect(err.message).toContain('corrupt.pdf');
    expect(err.details).toMatchObject({ reason: 'corrupt', file: 'corrupt.pdf' });
  });

  it('does not detach the caller’s buffer and prints nothing', async () => {
    const data = fixture('sample.pdf');
    const log = vi.spyOn(console, 'log');
    const warn = vi.spyOn(console, 'warn');
    const info = vi.spyOn(console, 'info');
    const stdout = vi.spyOn(process.stdout, 'write');
    try {
      await pdfParser.parse({ data, filename: 'sample.pdf' });
      await parse('chinese.pdf');
      await parse('scanned.pdf');
      await parse('corrupt.pdf').catch(() => undefined);
      expect(log).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
      expect(info).not.toHaveBeenCalled();
      expect(stdout).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
    expect(data.byteLength).toBeGreaterThan(1000);
  });
});

// tables.pdf: printed by Chromium (make-pdf-table-fixtures.sh). Page 1: two tables between paragraphs; page 2:
// two-column prose (English, Chinese); page 3: lists and code; pages 4-5: wrapped cells, a table over two pages;
// page 6: a tight table under three-column justified prose.
describe('pdf parser: tables', () => {
  const LANE_HEADER = '| No. | Origin port | Destination | Lane code | Rate | Days |\n| --- | --- | --- | --- | --- | --- |';

  it('turns tables into Markdown tables, header first and rows in order, between their paragraphs', async () => {
    const doc = await parse('tables.pdf');
    expectConsistent(doc);
    expect(doc.blocks.filter((b) => b.page === 1).map((b) => b.kind)).toEqual([
      'heading',
      'paragraph',
      'table',
      'paragraph',
      'heading',
      'paragraph',
      'table',
      'paragraph',
    ]);
    expect(blockWith(doc, '| Lane |')).toMatchObject({ kind: 'table', page: 1, heading_path: ['Freight Rates'] });
    expect(blockWith(doc, '| Lane |').text).toBe(
      [
        '| Lane | Container | Rate (USD) | Transit days |',
        '| --- | --- | --- | --- |',
        '| Shanghai – Rotterdam | 40ft HC | 2,450 | 32 |',
        '| Ningbo – Hamburg | 20ft DV | 1,380 | 35 |',
        '| Санкт-Петербург – Шанхай | 40ft HC | 3,100 | 41 |',
        '| 深圳 – 鹿特丹 | 冷藏箱 40ft | 4,720 | 30 |',
        '| Qingdao – Felixstowe | 40ft HC | 2,290 | 33 |',
      ].join('\n'),
    );
    expect(blockWith(doc, '| Таможенная стоимость |')).toMatchObject({ page: 1, heading_path: ['Freight Rates', 'Таможенные сборы'] });
    expect(blockWith(doc, '| Таможенная стоимость |').text).toContain(
      '| 450 001 – 1 200 000 | 4 269 | 需要纸质发票 |\n| свыше 1 200 000 | 5 335 | 需要纸质发票和装箱单 |',
    );
    expect(blockWith(doc, 'Surcharges for bunker fuel')).toMatchObject({ kind: 'paragraph', page: 1 });
    expect(blockWith(doc, 'После выпуска товара')).toMatchObject({ kind: 'paragraph', page: 1 });
  });

  it('leaves two-column prose, lists and code as text', async () => {
    const doc = await parse('tables.pdf');
    expect(doc.blocks.filter((b) => b.kind === 'table' && (b.page === 2 || b.page === 3))).toEqual([]);
    expect(blockWith(doc, 'Inbound pallets are counted against the\nadvance shipping notice')).toMatchObject({
      kind: 'paragraph',
      page: 2,
    });
    expect(blockWith(doc, 'Outbound orders picked before two\no')).toMatchObject({ kind: 'paragraph', page: 2 });
    expect(blockWith(doc, '所有进口货物到达仓库后，收货员根据预先发\n货通知')).toMatchObject({ kind: 'paragraph', page: 2 });
    expect(blockWith(doc, '1. Weigh the container on the certified scale.\n2. Record')).toMatchObject({ kind: 'paragraph', page: 3 });
    expect(blockWith(doc, 'outbox=/srv/edi/outbox # where files go')).toMatchObject({ kind: 'paragraph', page: 3 });
  });

  it('joins the lines of wrapped cells, and cuts a table over two pages into row groups that repeat the header', async () => {
    const doc = await parse('tables.pdf');
    expect(blockWith(doc, '| Term |').text).toContain(
      '| DAP | В согласованном месте назначения, когда товар готов к разгрузке с прибывшего транспортного средства | Продавец |',
    );
    expect(blockWith(doc, '| Term |').text.split('\n')[0]).toBe('| Term | Risk passes | Who pays freight |');
    const groups = doc.blocks.filter((b) => b.kind === 'table' && b.heading_path?.at(-1) === 'Lane Register');
    expect(groups.length).toBeGreaterThan(2);
    const rows = groups.flatMap((g) => {
      expect(g.text.startsWith(`${LANE_HEADER}\n`)).toBe(true);
      return g.text
        .split('\n')
        .slice(2)
        .map((line) => ({ line, page: g.page }));
    });
    expect(rows.map((r) => Number(r.line.split(' | ')[0]!.slice(2)))).toEqual(Array.from({ length: 44 }, (_, i) => i + 1));
    expect(rows[21]).toEqual({ line: '| 22 | Qingdao (青岛) | Felixstowe | CNTAO-GBFXT | 2,014 | 32 |', page: 5 });
    expect(rows.filter((r) => r.page === 4).length).toBeGreaterThan(10);
    expect(rows.filter((r) => r.page === 5).length).toBeGreaterThan(10);
  });

  it('finds a tight table (2 pt cell padding, as word processors set it) under three columns of justified prose', async () => {
    const doc = await parse('tables.pdf');
    expect(doc.blocks.filter((b) => b.page === 6).map((b) => b.kind)).toEqual([
      'heading',
      'paragraph',
      'paragraph',
      'paragraph',
      'paragraph',
      'paragraph',
      'table',
      'paragraph',
    ]);
    expect(blockWith(doc, '| Code |').text).toBe(
      [
        '| Code | Description | Qty | Unit price |',
        '| --- | --- | --- | --- |',
        '| A-100 | Steel bolts M8 x 40 zinc plated | 1200 | 0.12 |',
        '| A-101 | Гайки М8 оцинкованные | 1200 | 0.05 |',
        '| B-220 | 垫圈 8 毫米 | 2400 | 0.02 |',
        '| C-310 | Hex key set 1.5–10 mm | 15 | 7.90 |',
      ].join('\n'),
    );
    expect(blockWith(doc, 'Export declarations are filed\nelectronically.')).toMatchObject({ kind: 'paragraph', page: 6 });
  });

  it('reads a table written column by column, next to a list and two-column prose (tables-gs.pdf, ghostscript)', async () => {
    const doc = await parse('tables-gs.pdf');
    expectConsistent(doc);
    expect(doc.blocks.map((b) => b.kind)).toEqual([
      'heading',
      'paragraph',
      'table',
      'paragraph',
      'paragraph',
      'paragraph',
      'paragraph',
      'paragraph',
    ]);
    expect(blockWith(doc, '| Warehouse |').text).toBe(
      [
        '| Warehouse | Pallets | Free slots | Manager |',
        '| --- | --- | --- | --- |',
        '| Rotterdam North | 1,240 | 35 | J. de Vries |',
        '| Hamburg Port | 860 | 120 | K. Schulz |',
        '| Gdansk East | 312 | 8 | A. Nowak |',
        '| Antwerp | 1,002 | 64 | M. Peeters |',
      ].join('\n'),
    );
    expect(blockWith(doc, '• Count the pallets in the racking.\n• Record').kind).toBe('paragraph');
    expect(blockWith(doc, 'Outbound orders picked before two o’clock\nleave').kind).toBe('paragraph');
  });

  it('a chunk never splits a table row, and a chunk with rows starts with their header (default chunking)', async () => {
    const doc = await parse('tables.pdf');
    const tables = doc.blocks.filter((b) => b.kind === 'table');
    const rows = tables.flatMap((t) => {
      let at = t.char_start;
      return t.text.split('\n').map((line) => {
        const row = { start: at, end: at + line.length, line, header: t.text.split('\n')[0]!, page: t.page };
        at += line.length + 1;
        return row;
      });
    });
    expect(rows.length).toBeGreaterThan(60);
    // The parser sizes row groups by the chunker's estimate; the fixture model counts the Lane Register's codes and
    // numbers (CNTAO-GBFXT, 2,014) higher, so some groups are over the chunk size and the chunker cuts them.
    const dir = await mkdtemp(path.join(tmpdir(), 'ragdesk-pdf-tables-'));
    try {
      await buildFixtureModel(dir);
      const model = (await loadModelTokenCounter(resolveModelSpec(dir, 'embedding'), dir))!;
      const lane = tables.filter((t) => t.text.startsWith(`${LANE_HEADER}\n`));
      expect(Math.max(...lane.map((t) => model.count(t.text)))).toBeGreaterThan(DEFAULT_CHUNKING.chunk_size);
      expect(Math.max(...lane.map((t) => estimateTokenCounter.count(t.text)))).toBeLessThanOrEqual(ROW_GROUP_TOKENS);
      for (const tokenizer of [wordCounter, estimateTokenCounter, model]) {
        const chunks = await chunkDocument(doc, DEFAULT_CHUNKING, { tokenizer });
        expect(Math.max(...chunks.map((c) => c.tokens))).toBeLessThanOrEqual(DEFAULT_CHUNKING.chunk_size);
        expectRowsWhole(chunks, rows);
        const lane22 = chunks.find((c) => c.text.includes('CNTAO-GBFXT'))!;
        expect(lane22.text).toContain('| 22 | Qingdao (青岛) | Felixstowe | CNTAO-GBFXT | 2,014 | 32 |');
        expect(lane22.location).toMatchObject({ page: 5, heading_path: ['Freight Rates', 'Lane Register'] });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

interface Row {
  start: number;
  end: number;
  line: string;
  header: string;
  page?: number | undefined;
}

/** No chunk starts or ends inside a row; each chunk holding a row has that row's table header as its first table line. */
function expectRowsWhole(chunks: ChunkDraft[], rows: Row[]): void {
  const spans = chunks.map((c) => ({
    text: c.text,
    page: c.location.page,
    start: c.location.char_start ?? NaN,
    end: c.location.char_end ?? NaN,
  }));
  expect(spans.every((c) => Number.isInteger(c.start) && Number.isInteger(c.end))).toBe(true);
  for (const row of rows) {
    for (const c of spans) {
      expect(c.start > row.start && c.start < row.end, `a chunk starts inside ${row.line}`).toBe(false);
      expect(c.end > row.start && c.end < row.end, `a chunk ends inside ${row.line}`).toBe(false);
    }
    const holding = spans.filter((c) => c.start <= row.start && c.end >= row.end);
    expect(holding.length, row.line).toBeGreaterThan(0);
    for (const c of holding) {
      const lines = c.text.split('\n');
      const tableStart = lines.findIndex((l) => l.startsWith('| '));
      expect(lines.slice(tableStart).includes(row.line), row.line).toBe(true);
      expect(lines.indexOf(row.header), `${row.line} in\n${c.text}`).toBeGreaterThanOrEqual(0);
      expect(lines.indexOf(row.header)).toBeLessThanOrEqual(lines.indexOf(row.line));
      expect(c.page).toBe(row.page);
    }
  }
}

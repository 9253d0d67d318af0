import { describe, expect, it } from 'vitest';
import { RagError } from '../../shared/errors.js';
import { chunkDocument } from '../chunk/index.js';
import { wordCounter } from '../chunk/test-support.js';
import {
  csvFixture,
  encryptedOfficeFixture,
  epubEncryptedFixture,
  epubFixture,
  odpFixture,
  odsFixture,
  odtEncryptedFixture,
  odtFixture,
  pptxFixture,
  rtfFixture,
  xlsxFixture,
  zipBombFixture,
} from './__fixtures__/office-fixtures.js';
import { codeBlocks } from './code-parser.js';
import { parseBytesInThread } from './registry.js';
import { blockWith, expectConsistent } from './test-support.js';
import type { ParsedDocument } from './types.js';

const parse = async (data: Uint8Array, filename: string): Promise<ParsedDocument> => {
  const doc = await parseBytesInThread({ data, filename });
  expectConsistent(doc);
  return doc;
};

async function failure(data: Uint8Array, filename: string): Promise<RagError> {
  const err = await parseBytesInThread({ data, filename }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, filename).toBeInstanceOf(RagError);
  return err as RagError;
}

describe('spreadsheets', () => {
  it('XLSX: a heading per sheet, row groups that repeat the header, row numbers as line ranges, dates as dates', async () => {
    const doc = await parse(xlsxFixture(), 'sales.xlsx');
    expect(doc.parser).toBe('xlsx');
    expect(doc.title).toBe('Отчёт о продажах');
    expect(doc.metadata).toMatchObject({ sheet_count: 2, sheets: ['Продажи', '销售'], author: 'Анна Петрова' });
    expect(doc.blocks.filter((b) => b.kind === 'heading').map((b) => b.text)).toEqual(['Продажи', '销售']);
    const groups = doc.blocks.filter((b) => b.kind === 'table' && b.heading_path?.[0] === 'Продажи');
    expect(groups.length).toBeGreaterThan(3);
    for (const g of groups)
      expect(g.text.startsWith('| Товар | Количество | Дата | Оплачено | |\n| --- | --- | --- | --- | --- |\n')).toBe(true);
    expect(groups[0]).toMatchObject({ line_start: 1 });
    expect(blockWith(doc, 'Таможенная пошлина 1 |').text).toContain('| Таможенная пошлина 1 | 20 | 2024-01-03 | FALSE | |');
    const last = blockWith(doc, 'Итого');
    expect(last.text).toContain('| Итого | 51500 | | | Rich text |');
    expect(last.text).not.toContain('ふりがな');
    expect(last.line_end).toBe(103);
    expect(blockWith(doc, '茶叶')).toMatchObject({ heading_path: ['销售'], line_start: 1, line_end: 3 });
    expect(blockWith(doc, '茶叶').text).toContain('| 绿茶\\|红茶 | 3 |');
  });

  it('ODS: dates, repeated rows written out, empty cells to the sheet edge never expanded', async () => {
    const doc = await parse(odsFixture(), 'budget.ods');
    expect(doc.parser).toBe('ods');
    expect(doc.title).toBe('Бюджет 2024');
    expect(doc.metadata).toMatchObject({ sheets: ['Бюджет', '预算'] });
    const t = blockWith(doc, 'Аренда');
    expect(t.text).toBe(
      '| Статья | Сумма | Дата |\n| --- | --- | --- |\n| Аренда | 1 200,00 ₽ | 2024-02-01 |\n| Связь | 300 | |\n| Связь | 300 | |\n| Связь | 300 | |',
    );
    expect(t).toMatchObject({ heading_path: ['Бюджет'], line_start: 1, line_end: 5 });
    expect(blockWith(doc, '租金').heading_path).toEqual(['预算']);
    expect(doc.text.length).toBeLessThan(500);
  });

  it('CSV: the delimiter sniffed, quoted fields with delimiters, quotes and line breaks, line ranges', async () => {
    const doc = await parse(csvFixture(), 'prices.csv');
    expect(doc.parser).toBe('csv');
    expect(doc.metadata).toMatchObject({ delimiter: ';', row_count: 4 });
    expect(doc.blocks).toHaveLength(1);
    expect(doc.blocks[0]).toMatchObject({ kind: 'table', line_start: 1, line_end: 6 });
    expect(doc.text).toBe(
      '| Товар | Цена | Примечание |\n| --- | --- | --- |\n| Чай; зелёный | 120 | сказал "да" и ушёл |\n| 茶叶 | 80 | 中国 |\n| Кофе | 200 | |',
    );
  });
});

describe('slides', () => {
  it('PPTX: one slide per page number, the title as heading, notes included, tables as Markdown, slide numbers left out', async () => {
    const doc = await parse(pptxFixture(), 'deck.pptx');
    expect(doc.parser).toBe('pptx');
    expect(doc.title).toBe('Импорт 2024');
    expect(doc.metadata.slide_count).toBe(2);
    expect(doc.blocks.map((b) => [b.kind, b.page, b.text])).toEqual([
      ['heading', 1, 'Импорт в 2024 году'],
      ['paragraph', 1, 'Рост на 12 %\nНовые правила'],
      ['paragraph', 1, 'Notes: Напомнить о сроках декларации.'],
      ['heading', 2, '销售概况'],
      ['table', 2, '| 城市 | 销量 |\n| --- | --- |\n| 上海 | 120 |'],
    ]);
    expect(blockWith(doc, 'Новые правила').heading_path).toEqual(['Импорт в 2024 году']);
  });

  it('ODP: the same shape from OpenDocument', async () => {
    const doc = await parse(odpFixture(), 'deck.odp');
    expect(doc.parser).toBe('odp');
    expect(doc.blocks.map((b) => [b.kind, b.page, b.text])).toEqual([
      ['heading', 1, 'Обзор рынка'],
      ['paragraph', 1, 'Рост импорта на 12 %'],
      ['paragraph', 1, 'Notes: Сказать про санкции.'],
      ['heading', 2, '市场概况'],
      ['table', 2, '| 国家 | 份额 |\n| --- | --- |\n| 中国 | 40% |'],
    ]);
  });
});

describe('documents', () => {
  it('ODT: outline levels as heading paths, spaces, lists, tables; footnote marks dropped', async () => {
    const doc = await parse(odtFixture(), 'report.odt');
    expect(doc.parser).toBe('odt');
    expect(doc.title).toBe('Отчёт ODT');
    expect(doc.metadata.author).toBe('Ли Вэй');
    expect(blockWith(doc, 'Декларация подаётся').text).toBe('Декларация подаётся до прибытия товара.См. статью 104.');
    expect(blockWith(doc, '所有进口货物').heading_path).toEqual(['Таможенное оформление', '海关申报']);
    expect(blockWith(doc, 'Invoice')).toMatchObject({ kind: 'list', text: '- Invoice\n- Packing list' });
    expect(blockWith(doc, '许可证')).toMatchObject({
      kind: 'table',
      text: '| Документ | Срок |\n| --- | --- |\n| Декларация | 3 дня |\n| 许可证 | 5天 |',
    });
    expect(blockWith(doc, 'After the table').kind).toBe('paragraph');
  });

  it('EPUB: chapters in spine order with their titles from the navigation as headings', async () => {
    const doc = await parse(epubFixture(), 'book.epub');
    expect(doc.parser).toBe('epub');
    expect(doc.title).toBe('Путешествие на Восток');
    expect(doc.metadata).toMatchObject({ author: 'Иван Бунин', language: 'ru' });
    expect(doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, b.text])).toEqual([
      [1, 'Глава 1. Москва'],
      [2, 'Вокзал'],
      [1, '第二章 北京'],
    ]);
    expect(blockWith(doc, 'На вокзале').heading_path).toEqual(['Глава 1. Москва', 'Вокзал']);
    expect(blockWith(doc, '火车').heading_path).toEqual(['第二章 北京']);
  });

  it('RTF: code pages per font, \\u characters, tables, \\info title; headers, pictures and tables of fonts skipped', async () => {
    const doc = await parse(rtfFixture(), 'memo.rtf');
    expect(doc.parser).toBe('rtf');
    expect(doc.title).toBe('Служебная записка');
    expect(doc.metadata.author).toBe('Анна');
    expect(doc.blocks.map((b) => b.text)).toEqual([
      'Таможенный склад bold and {braces}.',
      '海关仓库',
      '| Item | Qty |\n| --- | --- |\n| Чай | 10 |',
      'After the table\nsecond line.',
    ]);
    expect(doc.text).not.toMatch(/Times|SimSun|Page header|89504e/);
  });
});

describe('source code', () => {
  it('keeps indentation and exact line ranges, cutting at blank lines', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => (i % 10 === 9 ? '' : `    line_${i + 1} = "значение ${i + 1}"  # 注释`));
    const src = `def main():\n${lines.join('\n')}\n\n\n\nprint("done")\n`;
    const doc = await parse(Buffer.from(src), 'tool.py');
    expect(doc.parser).toBe('code');
    expect(doc.metadata.language).toBe('python');
    for (const b of doc.blocks) {
      expect(b.kind).toBe('code');
      const first = src.split('\n')[b.line_start! - 1]!;
      expect(b.text.split('\n')[0]).toBe(first);
      expect(b.text.split('\n')).toHaveLength(b.line_end! - b.line_start! + 1);
    }
    expect(blockWith(doc, 'print("done")')).toMatchObject({ line_start: 55, line_end: 55 });
    expect(blockWith(doc, 'line_5 ').text).toContain('    line_5 = "значение 5"');
  });

  it('splits long files into blocks of whole lines', () => {
    const blocks = codeBlocks(Array.from({ length: 200 }, (_, i) => `x${i}`).join('\n'));
    expect(blocks.map((b) => [b.line_start, b.line_end])).toEqual([
      [1, 80],
      [81, 160],
      [161, 200],
    ]);
  });
});

describe('bad office files get their codes', () => {
  it('encrypted: OLE-wrapped OOXML, ODF with encryption data, DRM EPUB', async () => {
    for (const name of ['secret.xlsx', 'secret.pptx', 'secret.docx', 'secret']) {
      expect((await failure(encryptedOfficeFixture(), name)).details).toMatchObject({ reason: 'encrypted' });
    }
    expect((await failure(odtEncryptedFixture(), 'secret.odt')).details).toMatchObject({ reason: 'encrypted' });
    expect((await failure(epubEncryptedFixture(), 'drm.epub')).details).toMatchObject({ reason: 'encrypted' });
  });

  it('corrupt: truncated or foreign bytes under every extension', async () => {
    const cases: [Buffer, string][] = [
      [xlsxFixture().subarray(0, 300), 'cut.xlsx'],
      [pptxFixture().subarray(0, 300), 'cut.pptx'],
      [odtFixture().subarray(0, 300), 'cut.odt'],
      [odsFixture().subarray(0, 300), 'cut.ods'],
      [odpFixture().subarray(0, 300), 'cut.odp'],
      [epubFixture().subarray(0, 300), 'cut.epub'],
      [Buffer.from('just text'), 'fake.xlsx'],
      [Buffer.from('just text'), 'fake.epub'],
      [Buffer.from('just text'), 'fake.rtf'],
    ];
    for (const [data, name] of cases) {
      const err = await failure(data, name);
      expect(err.code, name).toBe('parse_failed');
      expect(err.message).toContain(name);
    }
  });

  it('zip bombs are too_large naming the limit, before anything is inflated', async () => {
    const bombs: [Buffer, string][] = [
      [zipBombFixture('word/document.xml'), 'bomb.docx'],
      [zipBombFixture('xl/workbook.xml'), 'bomb.xlsx'],
      [zipBombFixture('ppt/presentation.xml'), 'bomb.pptx'],
      [zipBombFixture('content.xml', 'application/vnd.oasis.opendocument.text'), 'bomb.odt'],
      [zipBombFixture('content.xml', 'application/vnd.oasis.opendocument.spreadsheet'), 'bomb.ods'],
      [zipBombFixture('META-INF/container.xml', 'application/epub+zip'), 'bomb.epub'],
    ];
    for (const [data, name] of bombs) {
      const err = await failure(data, name);
      expect(err.code, name).toBe('too_large');
      expect(err.details, name).toMatchObject({ limit: 'maxRatio', file: name });
    }
  });
});

describe('tables in chunks', () => {
  it('one chunk per row group, each starting with the header, rows never split (markdown strategy)', async () => {
    const doc = await parse(xlsxFixture(), 'sales.xlsx');
    const chunks = await chunkDocument(doc, { strategy: 'markdown', chunk_size: 2048, chunk_overlap: 32 }, { tokenizer: wordCounter });
    const groups = doc.blocks.filter((b) => b.kind === 'table');
    const tableChunks = chunks.filter((c) => c.text.includes('| --- |'));
    expect(tableChunks).toHaveLength(groups.length);
    for (const c of tableChunks) {
      // The first group of a sheet comes after the sheet's heading.
      const body = c.text.replace(/^(Продажи|销售)\n\n/, '');
      expect(body).toMatch(/^\| (Товар|产品) \|/);
      for (const line of body.split('\n')) expect(line).toMatch(/^\|.*\|$/);
    }
    const sheet1 = tableChunks.filter((c) => c.location.heading_path?.[0] === 'Продажи');
    expect(sheet1[0]!.location).toMatchObject({ line_start: 1 });
    expect(sheet1.at(-1)!.location).toMatchObject({ line_end: 103 });
  });
});

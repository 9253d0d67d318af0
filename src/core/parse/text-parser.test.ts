import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { expectConsistent, fixture } from './test-support.js';
import { splitParagraphs, textParser, titleLine } from './text-parser.js';

describe('splitParagraphs', () => {
  it('splits at blank lines and records 1-based line ranges', () => {
    const blocks = splitParagraphs('first line\nsecond line\n\n\n  \nthird\n');
    expect(blocks).toEqual([
      { kind: 'paragraph', text: 'first line\nsecond line', line_start: 1, line_end: 2 },
      { kind: 'paragraph', text: 'third', line_start: 6, line_end: 6 },
    ]);
  });

  it('offsets line numbers and handles text without a final newline', () => {
    expect(splitParagraphs('a\n\nb', 10)).toEqual([
      { kind: 'paragraph', text: 'a', line_start: 10, line_end: 10 },
      { kind: 'paragraph', text: 'b', line_start: 12, line_end: 12 },
    ]);
  });

  it('splits a very long paragraph at line boundaries so line ranges stay precise', () => {
    const lines = Array.from({ length: 150 }, (_, i) => `log line ${i + 1}`);
    const blocks = splitParagraphs(lines.join('\n'));
    expect(blocks.length).toBeGreaterThan(1);
    expect(blocks[0]!.line_start).toBe(1);
    expect(blocks.at(-1)!.line_end).toBe(150);
    for (let i = 1; i < blocks.length; i++) expect(blocks[i]!.line_start).toBe(blocks[i - 1]!.line_end! + 1);
  });
});

describe('text parser', () => {
  it('parses UTF-8 text into paragraphs with line ranges', async () => {
    const doc = await textParser.parse({
      data: new TextEncoder().encode('Shipping  terms:\tFOB.\r\nLine two.\r\n\r\nReturns within 30 days.\r\n'),
    });
    expect(doc.parser).toBe('text');
    expect(doc.text).toBe('Shipping terms: FOB.\nLine two.\n\nReturns within 30 days.');
    expect(doc.blocks.map((b) => [b.line_start, b.line_end])).toEqual([
      [1, 2],
      [4, 4],
    ]);
    expect(doc.metadata.encoding).toBe('utf-8');
    expectConsistent(doc);
  });

  for (const [file, encoding] of [
    ['cp1251.txt', 'windows-1251'],
    ['koi8r.txt', 'koi8-r'],
  ] as const) {
    it(`decodes ${file} as ${encoding} Russian`, async () => {
      const doc = await textParser.parse({ data: fixture(file), filename: file });
      expect(doc.metadata.encoding).toBe(encoding);
      expect(doc.blocks.map((b) => b.text)).toEqual([
        'Таможенное оформление',
        'Таможенная декларация подаётся до прибытия товара.\nТаможня проверяет документы в течение четырёх часов.',
        'Возврат товара оформляется без уплаты таможенной пошлины.',
      ]);
      expect(doc.blocks.map((b) => [b.line_start, b.line_end])).toEqual([
        [1, 1],
        [3, 4],
        [6, 6],
      ]);
      expectConsistent(doc);
    });
  }

  it('decodes gbk.txt as Chinese', async () => {
    const doc = await textParser.parse({ data: fixture('gbk.txt'), filename: 'gbk.txt' });
    expect(doc.metadata.encoding).toBe('gb18030');
    expect(doc.text).toContain('所有进口货物必须在到港前向海关申报。');
    expect(doc.blocks.find((b) => b.text === '退货政策')).toMatchObject({ line_start: 6, line_end: 6 });
    expectConsistent(doc);
  });

  it('decodes UTF-16 LE with a BOM', async () => {
    const doc = await textParser.parse({ data: fixture('utf16le-bom.txt'), filename: 'utf16le-bom.txt' });
    expect(doc.metadata.encoding).toBe('utf-16le');
    expect(doc.blocks.map((b) => b.text)).toEqual(['Returns policy', 'Возврат товара в течение 30 дней.\n退货需在三十天内办理。']);
  });

  it('decodes a long GB18030 text and keeps line numbers', async () => {
    const body = Array.from({ length: 20 }, (_, i) => `第${i + 1}条：进口货物须向海关申报，退货须在三十天内办理。`).join('\n\n');
    const doc = await textParser.parse({ data: iconv.encode(body, 'gb18030') });
    expect(doc.blocks).toHaveLength(20);
    expect(doc.blocks[19]).toMatchObject({ text: '第20条：进口货物须向海关申报，退货须在三十天内办理。', line_start: 39, line_end: 39 });
  });

  it('returns an empty document with a warning for whitespace only', async () => {
    const doc = await textParser.parse({ data: new TextEncoder().encode(' \n\n\t\n') });
    expect(doc.blocks).toEqual([]);
    expect(doc.warnings).toContain('empty_text');
  });
});

describe('titleLine', () => {
  it('takes a short first line that looks like a title', () => {
    expect(titleLine('SHIPPING TERMS AND INCOTERMS\nchapter 3')).toBe('SHIPPING TERMS AND INCOTERMS');
    expect(titleLine('Таможенное оформление')).toBe('Таможенное оформление');
    expect(titleLine('海关申报')).toBe('海关申报');
  });

  it('refuses sentences, log lines and long lines', () => {
    expect(titleLine('This is a sentence.')).toBeUndefined();
    expect(titleLine('2024-01-01 12:00 INFO started')).toBeUndefined();
    expect(titleLine('word '.repeat(20))).toBeUndefined();
    expect(titleLine(undefined)).toBeUndefined();
  });
});

describe('very long lines', () => {
  it('cuts a single 1 MB line into blocks at spaces, all on line 1, losing nothing', async () => {
    const line = 'таможня customs 海关 '.repeat(50_000).trim();
    const doc = await textParser.parse({ data: Buffer.from(`${line}\nnext line\n`), filename: 'log.txt' });
    expectConsistent(doc);
    const first = doc.blocks.filter((b) => b.line_start === 1);
    expect(first.length).toBeGreaterThan(200);
    for (const b of first) expect(b).toMatchObject({ line_end: 1 });
    expect(first.map((b) => b.text).join(' ')).toBe(line);
    expect(doc.blocks.at(-1)).toMatchObject({ text: 'next line', line_start: 2 });
  });
});

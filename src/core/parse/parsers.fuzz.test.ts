import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RagError } from '../../shared/errors.js';
import {
  csvFixture,
  epubFixture,
  odpFixture,
  odsFixture,
  odtFixture,
  pptxFixture,
  rtfFixture,
  xlsxFixture,
} from './__fixtures__/office-fixtures.js';
import { parseBytesInThread } from './registry.js';
import { expectConsistent, fixture } from './test-support.js';
import { buildZip } from './zip/zip-writer.js';

/**
 * Property-based abuse of every parser: random bytes behind each format's magic number, truncations and byte flips
 * of real fixtures, and deep nesting. Every input must end in a consistent document or a RagError with a stable
 * code, never another exception and never a hang (each property has a bounded number of runs and the test a
 * timeout). Runs in-thread: the pool's own limits are tested in pool/ and by the hostile-folder test.
 */
const EXPECTED_CODES = new Set(['parse_failed', 'too_large', 'unsupported_format']);

async function outcome(data: Uint8Array, filename: string): Promise<void> {
  try {
    const doc = await parseBytesInThread({ data, filename });
    expectConsistent(doc);
  } catch (err) {
    if (!(err instanceof RagError)) throw new Error(`${filename}: not a RagError: ${String(err)}`, { cause: err });
    expect(EXPECTED_CODES.has(err.code), `${filename}: ${err.code} ${err.message}`).toBe(true);
  }
}

const FORMATS: [name: string, make: () => Uint8Array][] = [
  ['sample.pdf', () => fixture('sample.pdf')],
  ['headings.docx', () => fixture('headings.docx')],
  ['sample.html', () => fixture('sample.html')],
  ['sample.md', () => fixture('sample.md')],
  ['cp1251.txt', () => fixture('cp1251.txt')],
  ['sales.xlsx', xlsxFixture],
  ['budget.ods', odsFixture],
  ['prices.csv', csvFixture],
  ['deck.pptx', pptxFixture],
  ['deck.odp', odpFixture],
  ['report.odt', odtFixture],
  ['book.epub', epubFixture],
  ['memo.rtf', rtfFixture],
  ['tool.py', () => Buffer.from('def f(x):\n    return {"ключ": x}  # 注释\n')],
];

const MAGIC: [string, Uint8Array][] = [
  ['x.pdf', Buffer.from('%PDF-1.7\n')],
  ['x.docx', Buffer.from('PK\x03\x04', 'latin1')],
  ['x.xlsx', Buffer.from('PK\x03\x04', 'latin1')],
  ['x.epub', Buffer.from('PK\x03\x04\x14\x00\x00\x00\x00\x00mimetypeapplication/epub+zip', 'latin1')],
  ['x.odt', Buffer.from('PK\x03\x04\x14\x00\x00\x00\x00\x00mimetypeapplication/vnd.oasis.opendocument.text', 'latin1')],
  ['x.rtf', Buffer.from('{\\rtf1\\ansi ')],
  ['x.html', Buffer.from('<!doctype html><html><body>')],
  ['x.md', Buffer.from('# Title\n\n')],
  ['x.csv', Buffer.from('a;b;c\n')],
  ['x.txt', Buffer.alloc(0)],
];

describe('parsers under random input', () => {
  it('random bytes behind each magic number', { timeout: 120_000 }, async () => {
    for (const [name, magic] of MAGIC) {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (tail) => outcome(Buffer.concat([magic, tail]), name)),
        { numRuns: 25, seed: 42 },
      );
    }
  });

  it('random printable text with markup characters for the text formats', { timeout: 120_000 }, async () => {
    const markup = fc.string({ unit: fc.constantFrom(...'<>/*_`~[]()!#|\\{}&;:"\' \n\tаб中x'.split('')), maxLength: 3000 });
    for (const name of ['x.md', 'x.html', 'x.rtf', 'x.csv', 'x.txt', 'x.ts']) {
      await fc.assert(
        fc.asyncProperty(markup, async (s) => outcome(Buffer.from(name === 'x.rtf' ? `{\\rtf1 ${s}` : s), name)),
        { numRuns: 30, seed: 7 },
      );
    }
  });

  it('truncations and byte flips of every fixture', { timeout: 180_000 }, async () => {
    for (const [name, make] of FORMATS) {
      const base = make();
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: base.length }),
          fc.array(fc.tuple(fc.nat({ max: Math.max(0, base.length - 1) }), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
          async (cut, flips) => {
            const data = Buffer.from(base.subarray(0, Math.max(cut, 1)));
            for (const [at, value] of flips) if (at < data.length) data[at] = value;
            await outcome(data, name);
          },
        ),
        { numRuns: name.endsWith('.pdf') ? 12 : 20, seed: 1 },
      );
    }
  });

  it('deep nesting in every syntax', { timeout: 120_000 }, async () => {
    const depth = 50_000;
    const cases: [string, Uint8Array][] = [
      ['deep.html', Buffer.from(`<html><body>${'<div><span>'.repeat(depth)}text${'</i>'.repeat(1000)}`)],
      ['deep.md', Buffer.from(`${'> '.repeat(depth)}quote\n\n${'  - '.repeat(2000)}item\n`)],
      ['deep.rtf', Buffer.from(`{\\rtf1 ${'{\\b '.repeat(depth)}text${'}'.repeat(depth)}}`)],
      ['deep.csv', Buffer.from(`"${'""'.repeat(depth)}`)],
      [
        'deep.odt',
        buildZip([
          { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', method: 0 },
          { name: 'content.xml', data: `<office:text>${'<text:list><text:list-item>'.repeat(depth)}<text:p>x</text:p></office:text>` },
        ]),
      ],
      [
        'deep.xlsx',
        buildZip([
          { name: 'xl/workbook.xml', data: '<workbook><sheets><sheet name="S" r:id="r1"/></sheets></workbook>' },
          { name: 'xl/_rels/workbook.xml.rels', data: '<Relationships><Relationship Id="r1" Target="s.xml"/></Relationships>' },
          { name: 'xl/s.xml', data: `<worksheet><sheetData>${'<row><c><is>'.repeat(depth)}</sheetData></worksheet>` },
        ]),
      ],
    ];
    for (const [name, data] of cases) await outcome(data, name);
  });
});

import { describe, expect, it } from 'vitest';
import { ParserInfoSchema } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { looksBinary, looksLikeMarkdown, sniff } from './detect.js';
import { detectParser, extensionOf, getParser, listParsers, parseBytes } from './registry.js';
import { expectConsistent, fixture } from './test-support.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

async function errorOf(p: Promise<unknown>): Promise<RagError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RagError);
  return err as RagError;
}

function pseudoRandomBytes(n: number, seed = 42): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('listParsers / getParser', () => {
  it('lists every parser in the contract shape', () => {
    const list = listParsers();
    expect(list.map((p) => p.name)).toEqual([
      'text',
      'markdown',
      'html',
      'pdf',
      'docx',
      'xlsx',
      'ods',
      'csv',
      'pptx',
      'odp',
      'odt',
      'epub',
      'rtf',
      'code',
      'image',
    ]);
    for (const info of list) {
      expect(() => ParserInfoSchema.parse(info)).not.toThrow();
      expect(info.extensions.length).toBeGreaterThan(0);
      expect(info.mime_types.length).toBeGreaterThan(0);
      expect(info.description.length).toBeGreaterThan(10);
    }
    expect(list.find((p) => p.name === 'pdf')).toMatchObject({ extensions: ['pdf'], mime_types: ['application/pdf'] });
  });

  it('gets a parser by name and rejects unknown names', () => {
    expect(getParser('markdown').name).toBe('markdown');
    expect(() => getParser('doc')).toThrow(expect.objectContaining({ code: 'invalid_parameter' }));
  });
});

describe('detectParser', () => {
  it('detects by extension', () => {
    expect(detectParser({ data: utf8('# Title\n'), filename: 'notes.md' }).name).toBe('markdown');
    expect(detectParser({ data: utf8('<p>x</p>'), filename: 'page.HTM' }).name).toBe('html');
    expect(detectParser({ data: utf8('# not a heading, a comment'), filename: 'a.txt' }).name).toBe('text');
    expect(detectParser({ data: utf8('a,b\n1,2\n'), filename: 'table.csv' }).name).toBe('csv');
    expect(detectParser({ data: utf8('key: value\n'), filename: 'config.yaml' }).name).toBe('code');
    expect(detectParser({ data: utf8('FROM node:20\n'), filename: '/src/Dockerfile' }).name).toBe('code');
    expect(detectParser({ data: utf8('export const a = 1;\n'), filename: 'a.ts' }).name).toBe('code');
  });

  it('detects by content when the name says nothing', () => {
    expect(detectParser({ data: fixture('sample.pdf'), filename: 'download' }).name).toBe('pdf');
    expect(detectParser({ data: fixture('headings.docx'), filename: 'attachment.bin.tmp' }).name).toBe('docx');
    expect(detectParser({ data: fixture('sample.html') }).name).toBe('html');
    expect(detectParser({ data: utf8('<!-- saved -->\n<html><body>x</body></html>') }).name).toBe('html');
    expect(detectParser({ data: utf8('# Title\n\nSome text with a [link](http://x).\n'), filename: 'README' }).name).toBe('markdown');
    expect(detectParser({ data: utf8('Plain words.\n- a dash line\n') }).name).toBe('text');
    expect(detectParser({ data: fixture('cp1251.txt'), filename: 'notes' }).name).toBe('text');
    expect(detectParser({ data: fixture('utf16le-bom.txt') }).name).toBe('text');
  });

  it('lets PDF or DOCX content win over a wrong extension', () => {
    expect(detectParser({ data: fixture('sample.pdf'), filename: 'report.txt' }).name).toBe('pdf');
    expect(detectParser({ data: fixture('headings.docx'), filename: 'report.pdf' }).name).toBe('docx');
  });

  it('sends damaged .pdf/.docx files to their parser (which then fails as parse_failed)', () => {
    expect(detectParser({ data: fixture('corrupt.pdf'), filename: 'corrupt.pdf' }).name).toBe('pdf');
    expect(detectParser({ data: fixture('broken.docx'), filename: 'broken.docx' }).name).toBe('docx');
  });

  it('refuses binary formats with unsupported_format', () => {
    const cases: [Uint8Array, string | undefined][] = [
      [new Uint8Array([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0]), 'song.mp3'],
      [new Uint8Array([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0]), undefined],
      [utf8('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'logo.svg'],
      [pseudoRandomBytes(4096), 'blob'],
      [pseudoRandomBytes(64, 7), undefined],
      [new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0, 0, 0]), 'setup.exe'],
      [utf8('MZ looks like text but the name says executable'), 'tool.exe'],
      [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, ...utf8('data.csv')]), 'archive.zip'],
      [new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'old.doc'],
      [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, ...utf8('data.csv')]), 'archive'],
    ];
    for (const [data, filename] of cases) {
      let err: unknown;
      try {
        detectParser({ data, ...(filename ? { filename } : {}) });
      } catch (e) {
        err = e;
      }
      expect(err, String(filename)).toBeInstanceOf(RagError);
      expect((err as RagError).code).toBe('unsupported_format');
      if (filename) expect((err as RagError).message).toContain(filename);
    }
  });
});

describe('sniffing helpers', () => {
  it('tells text from binary', () => {
    expect(looksBinary(utf8('Обычный текст\tс табуляцией\r\n'))).toBe(false);
    expect(looksBinary(fixture('gbk.txt'))).toBe(false);
    expect(looksBinary(fixture('utf16le-bom.txt'))).toBe(false);
    expect(looksBinary(new Uint8Array([0x48, 0x69, 0x00, 0x21]))).toBe(true);
    expect(sniff(fixture('scanned.pdf'))).toEqual({ kind: 'pdf' });
    expect(sniff(utf8('The %PDF- header is discussed here.'))).toEqual({ kind: 'text' });
  });

  it('recognises only obvious Markdown', () => {
    expect(looksLikeMarkdown('# Title\n## Second\ntext')).toBe(true);
    expect(looksLikeMarkdown('```\ncode\n```')).toBe(true);
    expect(looksLikeMarkdown('| a | b |\n|---|---|\n| 1 | 2 |')).toBe(true);
    expect(looksLikeMarkdown('# just a shell comment\necho hi')).toBe(false);
    expect(looksLikeMarkdown('Dear team,\n- item\n- item')).toBe(false);
  });

  it('reads extensions', () => {
    expect(extensionOf('dir.v2/Report.Final.PDF')).toBe('pdf');
    expect(extensionOf('C:\\docs\\notes.md')).toBe('md');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf(undefined)).toBe('');
  });
});

describe('parseBytes', () => {
  const cases: [string, string, string][] = [
    ['sample.pdf', 'pdf', 'Incoterms FOB Shanghai'],
    ['russian.pdf', 'pdf', 'таможенной пошлины'],
    ['chinese.pdf', 'pdf', '海关申报'],
    ['headings.docx', 'docx', 'quarantine cage'],
    ['russian.docx', 'docx', 'таможенной пошлины'],
    ['sample.md', 'markdown', 'physical inspection'],
    ['sample.html', 'html', 'CE mark'],
    ['cp1251.txt', 'text', 'таможенной пошлины'],
    ['koi8r.txt', 'text', 'таможенной пошлины'],
    ['gbk.txt', 'text', '退货'],
    ['utf16le-bom.txt', 'text', '退货需在三十天内办理'],
  ];
  for (const [file, parser, needle] of cases) {
    it(`parses ${file} with the ${parser} parser`, async () => {
      const doc = await parseBytes({ data: fixture(file), filename: file });
      expect(doc.parser).toBe(parser);
      expect(doc.text).toContain(needle);
      expectConsistent(doc);
    });
  }

  it('reports parse_failed naming the file for encrypted, corrupt and broken files', async () => {
    for (const [file, reason] of [
      ['encrypted.pdf', 'encrypted'],
      ['corrupt.pdf', 'corrupt'],
      ['broken.docx', 'invalid_docx'],
    ]) {
      const err = await errorOf(parseBytes({ data: fixture(file!), filename: file }));
      expect(err.code).toBe('parse_failed');
      expect(err.message).toContain(file);
      expect(err.details).toMatchObject({ file, reason });
    }
  });

  it('reports unsupported_format for binary data', async () => {
    const mp3 = new Uint8Array([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0]);
    const err = await errorOf(parseBytes({ data: mp3, filename: 'song.mp3' }));
    expect(err.code).toBe('unsupported_format');
    expect(err.details).toMatchObject({ file: 'song.mp3', detected: 'MP3 audio' });
  });

  it('sends images to the image parser (OCR reads them), whatever their name, and fails a damaged one as parse_failed', async () => {
    for (const name of ['photo.png', 'photo.txt', undefined])
      expect(detectParser({ data: PNG, ...(name ? { filename: name } : {}) }).name).toBe('image');
    expect(detectParser({ data: utf8('not really an image'), filename: 'fake.jpg' }).name).toBe('image');
    const err = await errorOf(parseBytes({ data: PNG, filename: 'scan.png' }));
    expect(err.code).toBe('parse_failed');
    expect(err.details).toMatchObject({ file: 'scan.png', reason: 'corrupt' });
    const fake = await errorOf(parseBytes({ data: utf8('not really an image'), filename: 'fake.jpg' }));
    expect(fake.details).toMatchObject({ reason: 'corrupt' });
  });

  it('returns an empty document with a warning for empty input or a scan', async () => {
    const empty = await parseBytes({ data: new Uint8Array(), filename: 'empty.txt' });
    expect(empty).toMatchObject({ text: '', blocks: [], warnings: ['empty_text'] });
    const scan = await parseBytes({ data: fixture('scanned.pdf'), filename: 'scanned.pdf' });
    expect(scan.warnings).toEqual(expect.arrayContaining(['no_text_layer', 'empty_text']));
  });

  it('can force a parser by name', async () => {
    const doc = await parseBytes({ data: fixture('sample.md'), filename: 'sample.md', parser: 'text' });
    expect(doc.parser).toBe('text');
    expect(doc.text).toContain('# Import Procedures');
    await expect(parseBytes({ data: utf8('x'), parser: 'nope' })).rejects.toMatchObject({ code: 'invalid_parameter' });
  });
});

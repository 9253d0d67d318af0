import { describe, expect, it, vi } from 'vitest';
import { RagError } from '../../shared/errors.js';
import { pdfParser, WARNING_NO_TEXT_LAYER } from './pdf-parser.js';
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

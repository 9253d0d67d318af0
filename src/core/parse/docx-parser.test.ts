import { describe, expect, it } from 'vitest';
import { RagError } from '../../shared/errors.js';
import { docxParser } from './docx-parser.js';
import { readDocxProperties } from './docx-properties.js';
import { blockWith, expectConsistent, fixture } from './test-support.js';

describe('docx parser', () => {
  it('turns Heading 1/2 into heading paths (headings.docx)', async () => {
    const doc = await docxParser.parse({ data: fixture('headings.docx'), filename: 'headings.docx' });
    expectConsistent(doc);
    expect(doc.parser).toBe('docx');
    expect(doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, b.text])).toEqual([
      [1, 'Receiving'],
      [2, 'Damaged Goods'],
      [2, 'Quarantine'],
      [1, 'Dispatch'],
    ]);
    expect(blockWith(doc, 'advance shipping notice').heading_path).toEqual(['Receiving']);
    expect(blockWith(doc, 'Photograph any damaged carton').heading_path).toEqual(['Receiving', 'Damaged Goods']);
    expect(blockWith(doc, 'quarantine cage').heading_path).toEqual(['Receiving', 'Quarantine']);
    expect(blockWith(doc, 'same day').heading_path).toEqual(['Dispatch']);
    expect(blockWith(doc, 'packing list')).toMatchObject({ kind: 'list', text: '- Check the packing list.\n- Print the carrier label.' });
    // The title comes from the document properties (docProps/core.xml), not from the first heading.
    expect(doc.title).toBe('Warehouse Operations Manual');
    expect(doc.metadata.language).toBe('en-US');
    expect(doc.warnings).toEqual([]);
  });

  it('reads Russian text (russian.docx)', async () => {
    const doc = await docxParser.parse({ data: fixture('russian.docx'), filename: 'russian.docx' });
    expectConsistent(doc);
    expect(blockWith(doc, 'Ставка ввозной таможенной пошлины').heading_path).toEqual(['Таможенные платежи', 'Ставки пошлин']);
    expect(doc.text).toContain('Таможенные платежи уплачиваются до выпуска товаров');
    // No title in its properties: the first heading stands in.
    expect(doc.title).toBe('Таможенные платежи');
  });

  it('fails with parse_failed naming the file for a broken docx', async () => {
    for (const [name, data] of [
      ['broken.docx', fixture('broken.docx')],
      ['not-a-zip.docx', new TextEncoder().encode('plain text pretending to be a docx')],
    ] as const) {
      const err = await docxParser.parse({ data, filename: name }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(RagError);
      expect((err as RagError).code).toBe('parse_failed');
      expect((err as RagError).message).toContain(name);
      expect((err as RagError).details).toMatchObject({ file: name, reason: 'invalid_docx' });
    }
  });
});

describe('readDocxProperties', () => {
  it('reads the title and ignores damaged or foreign files', () => {
    expect(readDocxProperties(fixture('headings.docx')).title).toBe('Warehouse Operations Manual');
    expect(readDocxProperties(fixture('broken.docx'))).toEqual({ metadata: {} });
    expect(readDocxProperties(fixture('sample.pdf'))).toEqual({ metadata: {} });
    expect(readDocxProperties(new Uint8Array())).toEqual({ metadata: {} });
  });
});

import type { ErrorCode } from '../../shared/errors.js';
import { buildZip } from './zip/zip-writer.js';

/**
 * The hostile files of issue 9, made by code (no binaries in the repository): what each must come to when parsed.
 * Used by the abuse test (hostile-files.test.ts) and by `ragdesk bench --only hostile`, which runs `ragdesk add` on a
 * folder of them and records peak RSS.
 */
export interface HostileFile {
  name: string;
  data: Uint8Array;
  /** `parsed`: read normally (maybe with a warning); otherwise the error code and the limit or reason it names. */
  expect: 'parsed' | { code: ErrorCode; limit?: string; reason?: string };
}

/** Deterministic pseudo-random bytes (no randomness in tests). */
export function pseudoRandom(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const MB = 1024 * 1024;

export function hostileFiles(fixtures: { encryptedPdf: Uint8Array }): HostileFile[] {
  const files: HostileFile[] = [
    {
      // 20 MB of document.xml in ~20 KB: the 62 KB file that took 27 s and 2.8 GB in mammoth.
      name: 'zip-bomb.docx',
      data: buildZip([
        { name: '[Content_Types].xml', data: '<Types/>' },
        { name: 'word/document.xml', data: `<w:document><w:body>${' '.repeat(20 * MB)}</w:body></w:document>` },
      ]),
      expect: { code: 'too_large', limit: 'maxRatio' },
    },
    {
      // A header that claims 1 KB for a part that inflates to 30 MB (passes the declared checks).
      name: 'lying-header.odt',
      data: buildZip([
        { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', method: 0 },
        { name: 'content.xml', data: Buffer.alloc(30 * MB, 0x20), declaredSize: 1024 },
      ]),
      expect: { code: 'too_large', limit: 'maxEntryBytes' },
    },
    {
      name: 'many-entries.xlsx',
      data: buildZip([
        { name: 'xl/workbook.xml', data: '<workbook/>' },
        ...Array.from({ length: 25_000 }, (_, i) => ({ name: `xl/x${i}`, data: '', method: 0 as const })),
      ]),
      expect: { code: 'too_large', limit: 'maxEntries' },
    },
    { name: 'deep-nesting.html', data: Buffer.from(`<html><body>${'<div>'.repeat(600_000)}Deep text</body></html>`), expect: 'parsed' },
    { name: 'div-table.html', data: Buffer.from(`<table><tr><td>${'<div>cell</div>'.repeat(80_000)}</td></tr></table>`), expect: 'parsed' },
    { name: 'single-line-12mb.txt', data: Buffer.from('таможня customs 海关 '.repeat(Math.ceil((12 * MB) / 24))), expect: 'parsed' },
    { name: 'emphasis.md', data: Buffer.from(`# Emphasis\n\n${'_a'.repeat(50_000)}\n`), expect: 'parsed' },
    {
      name: 'corrupt.pdf',
      data: Buffer.concat([Buffer.from('%PDF-1.7\n'), pseudoRandom(200_000, 3)]),
      expect: { code: 'parse_failed', reason: 'corrupt' },
    },
    { name: 'encrypted.pdf', data: fixtures.encryptedPdf, expect: { code: 'parse_failed', reason: 'encrypted' } },
    { name: 'binary-data.txt', data: pseudoRandom(100_000, 9), expect: { code: 'unsupported_format' } },
    { name: 'good.md', data: Buffer.from('# Склад\n\nТаможенный склад работает круглосуточно. 海关仓库。\n'), expect: 'parsed' },
  ];
  return files;
}

import { describe, expect, it } from 'vitest';
import { RagError } from '../../../shared/errors.js';
import { DEFAULT_ZIP_LIMITS, SafeZip } from './safe-zip.js';
import { buildZip } from './zip-writer.js';

function failure(fn: () => unknown): RagError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RagError);
    return err as RagError;
  }
  throw new Error('expected a failure');
}

describe('SafeZip', () => {
  it('reads stored and deflated entries, Russian and Chinese names and text included', () => {
    const zip = SafeZip.open(
      buildZip([
        { name: 'a.txt', data: 'hello', method: 0 },
        { name: 'папка/文件.xml', data: '<x>Таможня 海关</x>' },
      ]),
    );
    expect(zip.names()).toEqual(['a.txt', 'папка/文件.xml']);
    expect(zip.text('a.txt')).toBe('hello');
    expect(zip.text('папка/文件.xml')).toBe('<x>Таможня 海关</x>');
    expect(zip.read('missing')).toBeUndefined();
  });

  it('refuses too many entries before inflating anything', () => {
    const files = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, data: 'x' }));
    const err = failure(() => SafeZip.open(buildZip(files), 'many.docx', { ...DEFAULT_ZIP_LIMITS, maxEntries: 20 }));
    expect(err.code).toBe('too_large');
    expect(err.details).toMatchObject({ limit: 'maxEntries', value: 30, max: 20, file: 'many.docx' });
    expect(err.message).toContain('maxEntries');
  });

  it('refuses a declared size, total or compression ratio over the limits (a zip bomb)', () => {
    const bomb = buildZip([{ name: 'word/document.xml', data: Buffer.alloc(50 * 1024 * 1024, 0x20) }]);
    expect(bomb.length).toBeLessThan(100_000);
    expect(failure(() => SafeZip.open(bomb, 'bomb.docx')).details).toMatchObject({ limit: 'maxRatio' });
    const big = { ...DEFAULT_ZIP_LIMITS, maxRatio: 1e9 };
    expect(failure(() => SafeZip.open(bomb, 'bomb.docx', { ...big, maxEntryBytes: 10_000_000 })).details).toMatchObject({
      limit: 'maxEntryBytes',
    });
    const two = buildZip([
      { name: 'a', data: Buffer.alloc(3_000_000) },
      { name: 'b', data: Buffer.alloc(3_000_000) },
    ]);
    expect(failure(() => SafeZip.open(two, 'x.zip', { ...big, maxTotalBytes: 5_000_000 })).details).toMatchObject({
      limit: 'maxTotalBytes',
    });
  });

  it('stops inflating an entry whose header lies about its size', () => {
    const liar = buildZip([{ name: 'content.xml', data: Buffer.alloc(20 * 1024 * 1024, 0x61), declaredSize: 1000 }]);
    const zip = SafeZip.open(liar, 'liar.odt');
    const err = failure(() => zip.read('content.xml'));
    expect(err.code).toBe('too_large');
    expect(err.details).toMatchObject({ limit: 'maxEntryBytes', max: 1000 });
  });

  it('caps the total actually inflated', () => {
    const zip = SafeZip.open(
      buildZip([
        { name: 'a', data: Buffer.alloc(600_000, 1) },
        { name: 'b', data: Buffer.alloc(600_000, 2) },
      ]),
      'x.xlsx',
      { ...DEFAULT_ZIP_LIMITS, maxInflatedBytes: 1_000_000 },
    );
    expect(zip.read('a')).toHaveLength(600_000);
    expect(failure(() => zip.read('b')).details).toMatchObject({ limit: 'maxInflatedBytes' });
  });

  it('reports encrypted entries and damaged archives as parse_failed', () => {
    const enc = SafeZip.open(buildZip([{ name: 'content.xml', data: 'x', encrypted: true }]), 'enc.odt');
    expect(failure(() => enc.read('content.xml')).details).toMatchObject({ reason: 'encrypted' });
    expect(failure(() => SafeZip.open(Buffer.from('PK\x03\x04 not really'), 'bad.docx')).details).toMatchObject({ reason: 'corrupt' });
    const good = buildZip([{ name: 'a.xml', data: 'hello world '.repeat(100) }]);
    const cut = Buffer.concat([good.subarray(0, 40), good.subarray(good.length - 22 - 46 - 5)]);
    expect(failure(() => SafeZip.open(cut, 'cut.docx').read('a.xml')).code).toBe('parse_failed');
    const garbage = Buffer.from(good);
    garbage.fill(0x55, 40, 60);
    const g = SafeZip.open(garbage, 'garbage.docx');
    expect(failure(() => g.read('a.xml')).code).toBe('parse_failed');
  });
});

import { inflateRawSync } from 'node:zlib';
import { RagError } from '../../../shared/errors.js';
import { fileLabel, parseFailed } from '../parse-errors.js';

/**
 * A ZIP reader for untrusted files (DOCX, XLSX, PPTX, ODF, EPUB), with limits checked before and while inflating:
 * - before: the number of entries, each entry's declared uncompressed size, the declared total and each entry's
 *   declared compression ratio, all read from the central directory without inflating anything;
 * - while: an entry is inflated with zlib's `maxOutputLength` set to what it declared (and at most the entry
 *   limit), so a header that lies stops the inflater at the limit instead of filling memory; the running total of
 *   inflated bytes is capped too.
 * A file over a limit is `too_large` naming the limit (`details.limit`); a damaged archive is `parse_failed`.
 * Entries are only inflated when read: images in a DOCX are never touched.
 */
export interface ZipLimits {
  /** Entries in the central directory. */
  maxEntries: number;
  /** Uncompressed bytes of one entry, declared and actual. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all entries together, as declared. */
  maxTotalBytes: number;
  /** Uncompressed bytes this reader inflates in all, actual. */
  maxInflatedBytes: number;
  /** Uncompressed : compressed size of one entry, for entries over `ratioFloorBytes`. */
  maxRatio: number;
  /** Entries smaller than this are exempt from the ratio check (small XML parts compress very well). */
  ratioFloorBytes: number;
}

const MB = 1024 * 1024;

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 20_000,
  maxEntryBytes: 64 * MB,
  maxTotalBytes: 1024 * MB,
  maxInflatedBytes: 192 * MB,
  maxRatio: 200,
  ratioFloorBytes: MB,
};

export interface ZipEntry {
  name: string;
  method: number;
  encrypted: boolean;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const U32 = 0xffffffff;

function tooLarge(filename: string | undefined, limit: keyof ZipLimits, message: string, value: number, max: number): RagError {
  return new RagError('too_large', `${fileLabel(filename)} is refused: ${message} (limit ${limit} = ${max})`, {
    details: { limit, value, max, ...(filename ? { file: filename } : {}) },
  });
}

/** Zip64 extra field (id 1): the 64-bit values for whichever of size, compressed size and offset were 0xFFFFFFFF. */
function readZip64(buf: Buffer, start: number, end: number, entry: ZipEntry): void {
  let p = start;
  while (p + 4 <= end) {
    const id = buf.readUInt16LE(p);
    const len = buf.readUInt16LE(p + 2);
    if (id === 0x0001) {
      let q = p + 4;
      const next = (): number => {
        if (q + 8 > p + 4 + len) return U32;
        const v = Number(buf.readBigUInt64LE(q));
        q += 8;
        return v;
      };
      if (entry.size === U32) entry.size = next();
      if (entry.compressedSize === U32) entry.compressedSize = next();
      if (entry.localOffset === U32) entry.localOffset = next();
      return;
    }
    p += 4 + len;
  }
}

export class SafeZip {
  private readonly byName = new Map<string, ZipEntry>();
  private inflated = 0;

  private constructor(
    private readonly buf: Buffer,
    readonly entries: readonly ZipEntry[],
    private readonly limits: ZipLimits,
    private readonly filename: string | undefined,
  ) {
    for (const e of entries) if (!this.byName.has(e.name)) this.byName.set(e.name, e);
  }

  /** Reads the central directory and checks every declared limit; inflates nothing. */
  static open(data: Uint8Array, filename?: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): SafeZip {
    const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const corrupt = (why: string): RagError => parseFailed(filename, 'corrupt', `the file is not a readable ZIP archive (${why})`);
    let eocd = -1;
    for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
      if (buf.readUInt32LE(i) === EOCD) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw corrupt('no end of central directory');
    let count = buf.readUInt16LE(eocd + 10);
    let dirOffset = buf.readUInt32LE(eocd + 16);
    if ((count === 0xffff || dirOffset === U32) && eocd >= 20 && buf.readUInt32LE(eocd - 20) === EOCD64_LOCATOR) {
      const at = Number(buf.readBigUInt64LE(eocd - 20 + 8));
      if (at + 56 > buf.length || buf.readUInt32LE(at) !== EOCD64) throw corrupt('bad zip64 end record');
      count = Number(buf.readBigUInt64LE(at + 32));
      dirOffset = Number(buf.readBigUInt64LE(at + 48));
    }
    if (count > limits.maxEntries) throw tooLarge(filename, 'maxEntries', `the archive has ${count} entries`, count, limits.maxEntries);
    const entries: ZipEntry[] = [];
    let total = 0;
    let p = dirOffset;
    for (let n = 0; n < count; n++) {
      if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL) throw corrupt('truncated central directory');
      const nameLen = buf.readUInt16LE(p + 28);
      const extraLen = buf.readUInt16LE(p + 30);
      const commentLen = buf.readUInt16LE(p + 32);
      if (p + 46 + nameLen + extraLen > buf.length) throw corrupt('truncated central directory');
      const entry: ZipEntry = {
        name: buf.toString('utf8', p + 46, p + 46 + nameLen),
        method: buf.readUInt16LE(p + 10),
        encrypted: (buf.readUInt16LE(p + 8) & 1) === 1,
        compressedSize: buf.readUInt32LE(p + 20),
        size: buf.readUInt32LE(p + 24),
        localOffset: buf.readUInt32LE(p + 42),
      };
      readZip64(buf, p + 46 + nameLen, p + 46 + nameLen + extraLen, entry);
      if (entry.size > limits.maxEntryBytes) {
        throw tooLarge(
          filename,
          'maxEntryBytes',
          `entry "${entry.name}" declares ${entry.size} bytes uncompressed`,
          entry.size,
          limits.maxEntryBytes,
        );
      }
      const ratio = entry.size / Math.max(1, entry.compressedSize);
      if (entry.size > limits.ratioFloorBytes && ratio > limits.maxRatio) {
        throw tooLarge(
          filename,
          'maxRatio',
          `entry "${entry.name}" declares a compression ratio of ${Math.round(ratio)}:1 (a zip bomb?)`,
          Math.round(ratio),
          limits.maxRatio,
        );
      }
      total += entry.size;
      if (total > limits.maxTotalBytes) {
        throw tooLarge(filename, 'maxTotalBytes', `the entries declare more than ${total} bytes uncompressed`, total, limits.maxTotalBytes);
      }
      entries.push(entry);
      p += 46 + nameLen + extraLen + commentLen;
    }
    return new SafeZip(buf, entries, limits, filename);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  entry(name: string): ZipEntry | undefined {
    return this.byName.get(name);
  }

  /** Entry names in archive order. */
  names(): string[] {
    return this.entries.map((e) => e.name);
  }

  /** An entry's bytes, inflated within the limits; undefined when there is no such entry. */
  read(name: string): Buffer | undefined {
    const e = this.byName.get(name);
    if (!e) return undefined;
    if (e.encrypted) throw parseFailed(this.filename, 'encrypted', `the archive entry "${name}" is password-protected`);
    const corrupt = (why: string, cause?: unknown): RagError =>
      parseFailed(this.filename, 'corrupt', `the archive entry "${name}" ${why}`, cause);
    const lh = e.localOffset;
    if (lh + 30 > this.buf.length || this.buf.readUInt32LE(lh) !== LOCAL) throw corrupt('has no local header');
    const start = lh + 30 + this.buf.readUInt16LE(lh + 26) + this.buf.readUInt16LE(lh + 28);
    if (start + e.compressedSize > this.buf.length) throw corrupt('is truncated');
    const raw = this.buf.subarray(start, start + e.compressedSize);
    const cap = Math.min(e.size, this.limits.maxEntryBytes);
    if (this.inflated + cap > this.limits.maxInflatedBytes) {
      const want = this.inflated + cap;
      throw tooLarge(
        this.filename,
        'maxInflatedBytes',
        `reading "${name}" would inflate ${want} bytes in all`,
        want,
        this.limits.maxInflatedBytes,
      );
    }
    let out: Buffer;
    if (e.method === 0) out = raw;
    else if (e.method === 8) {
      try {
        // One byte past the declared size is enough to catch a header that lies.
        out = inflateRawSync(raw, { maxOutputLength: cap + 1 });
      } catch (err) {
        if ((err as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') throw corrupt('cannot be inflated', err);
        throw tooLarge(this.filename, 'maxEntryBytes', `entry "${name}" inflates past its declared ${e.size} bytes`, cap + 1, cap);
      }
    } else throw corrupt(`uses compression method ${e.method}, which is not supported`);
    if (out.length > cap) {
      throw tooLarge(this.filename, 'maxEntryBytes', `entry "${name}" holds more than its declared ${e.size} bytes`, out.length, cap);
    }
    this.inflated += out.length;
    return out;
  }

  /** An entry as UTF-8 text (a BOM dropped); undefined when there is no such entry. */
  text(name: string): string | undefined {
    const b = this.read(name);
    if (!b) return undefined;
    const s = b.toString('utf8');
    return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
  }
}

/** Starts with the local file header signature. */
export function isZip(data: Uint8Array): boolean {
  return data.length >= 4 && data[0] === 0x50 && data[1] === 0x4b && data[2] === 0x03 && data[3] === 0x04;
}

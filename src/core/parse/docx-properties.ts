import { inflateRawSync } from 'node:zlib';
import type { Metadata } from '../../shared/contract/index.js';
import { decodeEntities } from './html-blocks.js';

/**
 * Reads the document properties of a .docx (`docProps/core.xml`: title, creator, subject, keywords,
 * language, created date) with a minimal ZIP reader — mammoth only converts the body. Best effort: any problem yields
 * no properties, never an error (the body conversion decides whether the file is readable).
 */
export interface DocxProperties {
  title?: string;
  metadata: Metadata;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_CORE_XML = 1024 * 1024;

function findEntry(zip: Buffer, name: string): Buffer | undefined {
  // The end-of-central-directory record sits in the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const entries = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < entries && p + 46 <= zip.length; n++) {
    if (zip.readUInt32LE(p) !== CENTRAL) return undefined;
    const method = zip.readUInt16LE(p + 10);
    const compressed = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const entryName = zip.toString('utf8', p + 46, p + 46 + nameLen);
    if (entryName === name) {
      if (size > MAX_CORE_XML || local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL) return undefined;
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + compressed);
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data, { maxOutputLength: MAX_CORE_XML });
      return undefined;
    }
    p += 46 + nameLen + extraLen + commentLen;
  }
  return undefined;
}

function tag(xml: string, name: string): string | undefined {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`).exec(xml);
  const v = m?.[1] ? decodeEntities(m[1].replace(/<[^>]*>/g, '')).trim() : '';
  return v || undefined;
}

export function readDocxProperties(data: Uint8Array): DocxProperties {
  try {
    const core = findEntry(Buffer.from(data.buffer, data.byteOffset, data.byteLength), 'docProps/core.xml');
    if (!core) return { metadata: {} };
    const xml = core.toString('utf8');
    const metadata: Metadata = {};
    const author = tag(xml, 'dc:creator');
    const subject = tag(xml, 'dc:subject');
    const keywords = tag(xml, 'cp:keywords');
    const created = tag(xml, 'dcterms:created');
    const language = tag(xml, 'dc:language');
    if (author) metadata.author = author;
    if (subject) metadata.subject = subject;
    if (keywords) metadata.keywords = keywords;
    if (language) metadata.language = language;
    if (created && !Number.isNaN(Date.parse(created))) metadata.created = new Date(created).toISOString();
    const title = tag(xml, 'dc:title');
    return title ? { title, metadata } : { metadata };
  } catch {
    return { metadata: {} };
  }
}

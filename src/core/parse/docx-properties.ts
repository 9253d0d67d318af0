import type { Metadata } from '../../shared/contract/index.js';
import { decodeEntities } from './html-blocks.js';
import { SafeZip } from './zip/safe-zip.js';

/**
 * Reads the document properties of a .docx (`docProps/core.xml`: title, creator, subject, keywords,
 * language, created date) through the checked ZIP reader — mammoth only converts the body. Best effort: any problem yields
 * no properties, never an error (the body conversion decides whether the file is readable).
 */
export interface DocxProperties {
  title?: string;
  metadata: Metadata;
}

function tag(xml: string, name: string): string | undefined {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`).exec(xml);
  const v = m?.[1] ? decodeEntities(m[1].replace(/<[^>]*>/g, '')).trim() : '';
  return v || undefined;
}

export function readDocxProperties(source: SafeZip | Uint8Array): DocxProperties {
  try {
    const zip = source instanceof SafeZip ? source : SafeZip.open(source);
    const xml = zip.text('docProps/core.xml');
    if (!xml) return { metadata: {} };
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

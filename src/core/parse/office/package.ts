import { RagError } from '../../../shared/errors.js';
import { parseFailed } from '../parse-errors.js';
import { SafeZip } from '../zip/safe-zip.js';
import { walkXml } from './xml.js';

/**
 * Opening a ZIP-based document (OOXML, ODF, EPUB) for a parser: the checked reader (limits → `too_large`), a
 * damaged archive → `parse_failed` with the format's reason, a missing main part → the same.
 */
export function openPackage(data: Uint8Array, filename: string | undefined, what: string, mainPart: string): SafeZip {
  let zip: SafeZip;
  try {
    zip = SafeZip.open(data, filename);
  } catch (err) {
    if (err instanceof RagError && err.code === 'parse_failed')
      throw parseFailed(filename, 'corrupt', `the file is not a readable ${what}`, err);
    throw err;
  }
  if (!zip.has(mainPart)) throw parseFailed(filename, 'corrupt', `the file is not a readable ${what} (no ${mainPart})`);
  return zip;
}

/** An OpenDocument package whose manifest lists encryption data is password-protected. */
export function assertOdfNotEncrypted(zip: SafeZip, filename: string | undefined): void {
  const manifest = zip.text('META-INF/manifest.xml');
  if (!manifest) return;
  let encrypted = false;
  walkXml(manifest, {
    open: (n) => {
      if (n === 'manifest:encryption-data') encrypted = true;
    },
  });
  if (encrypted) throw parseFailed(filename, 'encrypted', 'the document is password-protected');
}

/** Title, author, language and dates from ODF `meta.xml` or OOXML `docProps/core.xml` (Dublin Core either way). */
export function coreProperties(xml: string | undefined): { title?: string; metadata: Record<string, string> } {
  const metadata: Record<string, string> = {};
  let title: string | undefined;
  if (!xml) return { metadata };
  const fields: Record<string, string> = {
    'dc:title': 'title',
    'dc:creator': 'author',
    'meta:initial-creator': 'author',
    'dc:subject': 'subject',
    'cp:keywords': 'keywords',
    'meta:keyword': 'keywords',
    'dc:language': 'language',
    'dcterms:created': 'created',
    'meta:creation-date': 'created',
  };
  let current: string | undefined;
  let buf = '';
  walkXml(xml, {
    open: (n) => {
      current = fields[n];
      buf = '';
    },
    text: (d) => {
      if (current) buf += d;
    },
    close: (n) => {
      const key = fields[n];
      const v = buf.trim();
      if (key && v) {
        if (key === 'title') title ??= v;
        else if (key === 'created') {
          if (!Number.isNaN(Date.parse(v))) metadata.created ??= new Date(v).toISOString();
        } else metadata[key] ??= v;
      }
      current = undefined;
    },
  });
  return title ? { title, metadata } : { metadata };
}

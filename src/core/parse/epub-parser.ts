import type { Metadata } from '../../shared/contract/index.js';
import { assembleDocument, type BlockDraft } from './assemble.js';
import { htmlToBlocks } from './html-blocks.js';
import { decodeHtml } from './html-parser.js';
import { openPackage } from './office/package.js';
import { localName, resolvePart, walkXml } from './office/xml.js';
import { parseFailed } from './parse-errors.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';
import type { SafeZip } from './zip/safe-zip.js';

/** Font obfuscation is not encryption of the text: EPUBs that only obfuscate fonts are read normally. */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);

function assertNotEncrypted(zip: SafeZip, filename: string | undefined): void {
  const xml = zip.text('META-INF/encryption.xml');
  if (!xml) return;
  let drm = false;
  walkXml(xml, {
    open: (n, a) => {
      if (localName(n) === 'EncryptionMethod' && a.Algorithm && !FONT_OBFUSCATION.has(a.Algorithm)) drm = true;
    },
  });
  if (drm) throw parseFailed(filename, 'encrypted', 'the e-book is encrypted (DRM)');
}

interface Opf {
  title?: string;
  metadata: Metadata;
  spine: string[];
  nav?: string;
  ncx?: string;
}

function readOpf(xml: string, opfPath: string): Opf {
  const items = new Map<string, { href: string; type: string; props: string }>();
  const spineIds: string[] = [];
  const meta: Record<string, string> = {};
  let field: string | undefined;
  let buf = '';
  let tocId: string | undefined;
  walkXml(xml, {
    open: (n, a) => {
      const l = localName(n);
      if (n.startsWith('dc:') && ['title', 'creator', 'language', 'subject', 'date'].includes(l)) {
        field = l;
        buf = '';
      } else if (l === 'item' && a.id && a.href) {
        items.set(a.id, {
          href: resolvePart(opfPath, decodeURIComponentSafe(a.href)),
          type: a['media-type'] ?? '',
          props: a.properties ?? '',
        });
      } else if (l === 'itemref' && a.idref) spineIds.push(a.idref);
      else if (l === 'spine') tocId = a.toc;
    },
    text: (d) => {
      if (field) buf += d;
    },
    close: () => {
      if (field && buf.trim() && !meta[field]) meta[field] = buf.trim();
      field = undefined;
    },
  });
  const metadata: Metadata = {};
  if (meta.creator) metadata.author = meta.creator;
  if (meta.language) metadata.language = meta.language;
  if (meta.subject) metadata.subject = meta.subject;
  const nav = [...items.values()].find((i) => i.props.split(/\s+/).includes('nav'))?.href;
  const ncx = (tocId ? items.get(tocId)?.href : undefined) ?? [...items.values()].find((i) => i.type === 'application/x-dtbncx+xml')?.href;
  return {
    ...(meta.title ? { title: meta.title } : {}),
    metadata,
    spine: spineIds.map((id) => items.get(id)?.href).filter((h): h is string => Boolean(h)),
    ...(nav ? { nav } : {}),
    ...(ncx ? { ncx } : {}),
  };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Chapter titles by file, from the EPUB 3 navigation document or the EPUB 2 NCX (the first entry per file wins). */
function tocTitles(zip: SafeZip, opf: Opf): Map<string, string> {
  const titles = new Map<string, string>();
  const add = (from: string, href: string | undefined, label: string): void => {
    const t = label.replace(/\s+/g, ' ').trim();
    if (!href || !t) return;
    const file = resolvePart(from, decodeURIComponentSafe(href.split('#')[0] ?? ''));
    if (!titles.has(file)) titles.set(file, t);
  };
  if (opf.nav) {
    const xml = zip.text(opf.nav);
    let href: string | undefined;
    let label = '';
    if (xml) {
      walkXml(xml, {
        open: (n, a) => {
          if (localName(n) === 'a') {
            href = a.href;
            label = '';
          }
        },
        text: (d) => {
          if (href !== undefined) label += d;
        },
        close: (n) => {
          if (localName(n) === 'a' && href !== undefined) {
            add(opf.nav!, href, label);
            href = undefined;
          }
        },
      });
    }
  }
  if (titles.size === 0 && opf.ncx) {
    const xml = zip.text(opf.ncx);
    let label = '';
    let inText = false;
    if (xml) {
      walkXml(xml, {
        open: (n, a) => {
          const l = localName(n);
          if (l === 'navPoint') label = '';
          else if (l === 'text') inText = true;
          else if (l === 'content') add(opf.ncx!, a.src, label);
        },
        text: (d) => {
          if (inText) label += d;
        },
        close: (n) => {
          if (localName(n) === 'text') inText = false;
        },
      });
    }
  }
  return titles;
}

export const epubParser: Parser = {
  name: 'epub',
  extensions: ['epub'],
  mimeTypes: ['application/epub+zip'],
  description:
    'EPUB e-books: chapters in reading order, each chapter title (from the table of contents) as a heading; DRM-encrypted books fail clearly.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const zip = openPackage(input.data, input.filename, 'EPUB e-book', 'META-INF/container.xml');
    assertNotEncrypted(zip, input.filename);
    let opfPath: string | undefined;
    walkXml(zip.text('META-INF/container.xml') ?? '', {
      open: (n, a) => {
        if (localName(n) === 'rootfile' && a['full-path'] && !opfPath) opfPath = a['full-path'];
      },
    });
    const opfXml = opfPath ? zip.text(opfPath) : undefined;
    if (!opfPath || !opfXml) throw parseFailed(input.filename, 'corrupt', 'the EPUB has no package document (OPF)');
    const opf = readOpf(opfXml, opfPath);
    const titles = tocTitles(zip, opf);
    const blocks: BlockDraft[] = [];
    for (const file of opf.spine) {
      if (file === opf.nav) continue;
      const bytes = zip.read(file);
      if (!bytes) continue;
      const chapter = htmlToBlocks(decodeHtml(bytes).text).blocks;
      if (chapter.length === 0) continue;
      const firstHeading = chapter.find((b) => b.kind === 'heading')?.text;
      const title = titles.get(file) ?? firstHeading;
      if (!title) {
        blocks.push(...chapter);
        continue;
      }
      // The chapter title heads the chapter; the chapter's own headings go one level under it.
      const opensWithTitle = chapter[0]!.kind === 'heading' && chapter[0]!.text.replace(/\s+/g, ' ').trim() === title;
      if (!opensWithTitle) blocks.push({ kind: 'heading', level: 1, text: title, heading_path: [title] });
      for (const b of chapter) {
        const inner = b.heading_path ?? [];
        const path = inner[0] === title ? inner : [title, ...inner];
        const level =
          b.kind !== 'heading'
            ? undefined
            : b === chapter[0] && opensWithTitle
              ? 1
              : opensWithTitle
                ? b.level
                : Math.min(6, (b.level ?? 1) + 1);
        blocks.push({ ...b, heading_path: path, ...(level === undefined ? {} : { level }) });
      }
    }
    return assembleDocument({ parser: 'epub', blocks, title: opf.title, metadata: { ...opf.metadata, chapter_count: opf.spine.length } });
  },
};

import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Metadata } from '../../shared/contract/index.js';
import { foldCjkRadicals } from '../text/cjk-radicals.js';
import { assembleDocument, HeadingTracker, type BlockDraft } from './assemble.js';
import { parseFailed } from './parse-errors.js';
import { headingLevels, linesToParagraphs, runsToLines, type PdfParagraph, type PdfTextRun } from './pdf-layout.js';
import { splitTables } from './pdf-tables.js';
import { tableToBlocks } from './table-markdown.js';
import { textLayerVerdict } from './text-layer-quality.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

/** Warning for a PDF whose pages carry no usable text at all (a scan): OCR reads it at ingestion. */
export const WARNING_NO_TEXT_LAYER = 'no_text_layer';

type PdfJs = typeof PdfJsModule;

/** What a page holds, in reading order: paragraphs of text, and tables found from the runs' geometry (pdf-tables). */
type PageItem = { page: number } & ({ kind: 'text'; paragraph: PdfParagraph } | { kind: 'table'; rows: string[][] });

function pageItems(runs: PdfTextRun[], styles: Record<string, { fontFamily?: string } | undefined>, page: number): PageItem[] {
  const mono = (r: PdfTextRun): boolean => styles[r.fontName ?? '']?.fontFamily === 'monospace';
  return splitTables(runs, mono).flatMap((part): PageItem[] =>
    part.kind === 'table'
      ? [{ page, kind: 'table', rows: part.rows }]
      : linesToParagraphs(runsToLines(part.runs)).map((paragraph) => ({ page, kind: 'text', paragraph })),
  );
}

const itemText = (item: PageItem): string => (item.kind === 'text' ? item.paragraph.text : item.rows.flat().join(' '));
let pdfjsLoading: Promise<{ pdfjs: PdfJs; assets: string }> | undefined;

/**
 * Loads pdf.js once, lazily (it is large). In Node there is no Web Worker: exposing the worker module as
 * `globalThis.pdfjsWorker` makes pdf.js run its "fake worker" in this thread without importing a worker
 * file by a relative URL (which breaks once bundled). `verbosity: 0` on every document keeps font warnings
 * off stdout/stderr.
 */
export function loadPdfJs(): Promise<{ pdfjs: PdfJs; assets: string }> {
  pdfjsLoading ??= (async () => {
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const assets = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    return { pdfjs, assets };
  })();
  return pdfjsLoading;
}

function pdfDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?/.exec(value);
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00'] = m;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}Z`;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

function infoMetadata(info: Record<string, unknown>): { metadata: Metadata; title?: string } {
  const metadata: Metadata = {};
  const str = (k: string): string | undefined => {
    const v = info[k];
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  const author = str('Author');
  const subject = str('Subject');
  const keywords = str('Keywords');
  const created = pdfDate(info.CreationDate);
  if (author) metadata.author = author;
  if (subject) metadata.subject = subject;
  if (keywords) metadata.keywords = keywords;
  if (created) metadata.created = created;
  const title = str('Title');
  return title && !/^untitled/i.test(title) ? { metadata, title } : { metadata };
}

export const pdfParser: Parser = {
  name: 'pdf',
  extensions: ['pdf'],
  mimeTypes: ['application/pdf'],
  description:
    'PDF text layer via pdf.js: paragraphs and tables (as Markdown) per page with page numbers; encrypted or corrupt files fail clearly, scans without text are flagged.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const { pdfjs, assets } = await loadPdfJs();
    const task = pdfjs.getDocument({
      // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
      data: new Uint8Array(input.data),
      verbosity: 0,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      cMapUrl: `${assets}/cmaps/`,
      cMapPacked: true,
      standardFontDataUrl: `${assets}/standard_fonts/`,
      wasmUrl: `${assets}/wasm/`,
    });
    let doc;
    try {
      doc = await task.promise;
    } catch (err) {
      await task.destroy().catch(() => undefined);
      const name = (err as { name?: string } | undefined)?.name;
      if (name === 'PasswordException') throw parseFailed(input.filename, 'encrypted', 'the PDF is password-protected', err);
      throw parseFailed(input.filename, 'corrupt', 'the PDF is damaged or not a PDF', err);
    }
    try {
      const items: PageItem[] = [];
      const emptyPages: number[] = [];
      const failedPages: number[] = [];
      let firstPageError: unknown;
      for (let n = 1; n <= doc.numPages; n++) {
        try {
          const page = await doc.getPage(n);
          const content = await page.getTextContent();
          // CJK fonts that share a glyph between a radical and its ideograph make pdf.js read radicals (⿅特丹).
          const runs = content.items
            .filter((it): it is PdfTextRun & typeof it => 'str' in it)
            .map((it) => {
              const str = foldCjkRadicals(it.str);
              return str === it.str ? it : { ...it, str };
            });
          const onPage = pageItems(runs, content.styles, n);
          // No text layer, or one that is only noise: the page is left to OCR (its noise is not indexed).
          const layer = onPage.length === 0 ? 'empty' : textLayerVerdict(onPage.map(itemText).join('\n'));
          if (layer !== 'text') emptyPages.push(n);
          if (layer !== 'noise') items.push(...onPage);
          page.cleanup();
        } catch (err) {
          // One damaged page does not lose the others; a file where every page fails is corrupt.
          failedPages.push(n);
          firstPageError ??= err;
        }
      }
      if (doc.numPages > 0 && failedPages.length === doc.numPages) throw firstPageError;
      // Heading sizes are judged against the body text; table cells take no part.
      const paragraphs = items.flatMap((item) => (item.kind === 'text' ? [item.paragraph] : []));
      const levels = new Map(headingLevels(paragraphs).map((level, i) => [paragraphs[i]!, level]));
      const headings = new HeadingTracker();
      const blocks: BlockDraft[] = items.flatMap((item): BlockDraft[] => {
        const { page } = item;
        if (item.kind === 'table') return tableToBlocks(item.rows, { base: { page, heading_path: headings.path() } });
        const { text } = item.paragraph;
        const level = levels.get(item.paragraph);
        if (level === undefined) return [{ kind: 'paragraph', text, page, heading_path: headings.path() }];
        return [{ kind: 'heading', level, text, page, heading_path: headings.enter(level, text) }];
      });
      const { info } = await doc.getMetadata().catch(() => ({ info: {} as Record<string, unknown> }));
      const { metadata, title } = infoMetadata((info ?? {}) as Record<string, unknown>);
      metadata.page_count = doc.numPages;
      const warnings: string[] = [];
      if (failedPages.length > 0) warnings.push(`pages_unreadable: ${failedPages.join(', ')}`);
      if (doc.numPages > 0 && emptyPages.length === doc.numPages) warnings.push(WARNING_NO_TEXT_LAYER);
      else if (emptyPages.length > 0) metadata.pages_without_text = emptyPages;
      const parsed = assembleDocument({ parser: 'pdf', blocks, title, metadata, warnings });
      return emptyPages.length ? { ...parsed, ocr: { kind: 'pdf', pages: emptyPages } } : parsed;
    } catch (err) {
      throw parseFailed(input.filename, 'corrupt', 'the PDF could not be read', err);
    } finally {
      await task.destroy().catch(() => undefined);
    }
  },
};

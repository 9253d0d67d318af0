import type { Kb } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { isCancelled, OcrCancelledError } from '../ocr/engine.js';
import { OcrLanguageStore } from '../ocr/lang-store.js';
import { ocrLanguagesFor } from '../ocr/languages.js';
import { ocrDocument, type OcrProgress, type RunPage } from '../ocr/ocr-document.js';
import { mergeOcr } from '../ocr/ocr-merge.js';
import type { OcrPageResult, OcrPageTask } from '../ocr/page-task.js';
import { defaultParsePool, type ParsePool } from '../parse/pool/parse-pool.js';
import type { ParsedDocument } from '../parse/types.js';
import type { CoreContext } from './context.js';
import { dataPaths } from '../config/data-dir.js';

/**
 * The OCR stage of ingestion: a parsed document whose parser left pages to OCR (a scan, an image) gets them read,
 * page by page, in the parse worker pool (`ocr-page` tasks: rendering and Tesseract never run on the main thread,
 * and a long scan takes turns with other files' parsing instead of holding a worker), in the KB's languages, with
 * progress per page and cancellation between pages. Language data is fetched here, on the main thread, once.
 */

/** A page may take this long without finishing before its worker is stopped (a dense page on a slow machine ~30 s). */
const PAGE_TIMEOUT_MS = 5 * 60_000;

const stores = new WeakMap<CoreContext, OcrLanguageStore>();

/** The OCR language data of a data dir (`<data>/models/tessdata` and the bundled English). */
export function ocrStore(ctx: CoreContext): OcrLanguageStore {
  let store = stores.get(ctx);
  if (!store) {
    store = new OcrLanguageStore({ modelsDir: dataPaths(ctx.options.dataDir).models, allowDownload: ctx.options.allowDownload });
    const s = store;
    s.onEvent((e) => {
      if (e.state !== 'downloading') return;
      const pct = e.progress === undefined ? '' : ` ${Math.round(e.progress * 100)}%`;
      ctx.events.emit('ingest', { kb_id: '', stage: 'ocr', message: `downloading OCR language data ${e.code}${pct}` });
    });
    stores.set(ctx, s);
  }
  return store;
}

export interface OcrStageOptions {
  /** The KB the document goes to: its `languages` choose the OCR languages. */
  kb?: Kb | undefined;
  filename?: string | undefined;
  signal?: AbortSignal | undefined;
  onPage?: ((p: OcrProgress) => void) | undefined;
  /** Read at most this many pages (preview); the rest are named in a warning. */
  maxPages?: number | undefined;
  /** The pool to run pages in (default: the process-wide parse pool); `'in-thread'` for tests and the bench. */
  pool?: ParsePool | 'in-thread' | undefined;
}

/**
 * What an OCR page counts against its worker's input budget (ParsePool `maxBytesPerWorker`, 64 MB by default): a
 * worker reads 200 pages before it is replaced, as when the pool counted tasks. A page's task holds far more than
 * its share of the file (the page rendered at 300 dpi, Tesseract's buffers), and the recognizer's memory never shrinks.
 */
export const OCR_PAGE_BYTES = 320 * 1024;

function poolRunner(pool: ParsePool, filename: string | undefined): RunPage {
  return async (task: OcrPageTask, signal?: AbortSignal) => {
    try {
      return await pool.run<OcrPageResult>('ocr-page', task, {
        bytes: OCR_PAGE_BYTES,
        timeoutMs: PAGE_TIMEOUT_MS,
        maxTaskMs: 3 * PAGE_TIMEOUT_MS,
        ...(filename ? { filename } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      if (signal?.aborted) throw new OcrCancelledError();
      throw err;
    }
  };
}

async function inThreadRunner(): Promise<RunPage> {
  const { runOcrPageTask } = await import('../ocr/page-task.js');
  return (task, signal) => runOcrPageTask(task, signal);
}

/** True when the parser left pages for OCR. */
export function needsOcr(parsed: ParsedDocument): boolean {
  const pages = parsed.ocr?.pages;
  return pages === 'all' || (Array.isArray(pages) && pages.length > 0);
}

/**
 * Read the pages the parser left to OCR and merge their text in. Errors: `model_unavailable` when a page cannot
 * be read without a language that is neither on disk nor downloadable; `parse_failed` when the file cannot be
 * drawn; an OcrCancelledError when `signal` aborts.
 */
export async function completeWithOcr(
  ctx: CoreContext,
  parsed: ParsedDocument,
  data: Uint8Array,
  options: OcrStageOptions = {},
): Promise<ParsedDocument> {
  if (!needsOcr(parsed) || !parsed.ocr) return parsed;
  const pool = options.pool ?? defaultParsePool();
  const runPage = pool === 'in-thread' ? await inThreadRunner() : poolRunner(pool, options.filename);
  let pages = parsed.ocr.pages;
  const total = pages === 'all' ? Number(parsed.metadata.page_count ?? 0) : pages.length;
  const warnings: string[] = [];
  if (options.maxPages !== undefined && total > options.maxPages) {
    const all = pages === 'all' ? Array.from({ length: total }, (_, i) => i + 1) : pages;
    pages = all.slice(0, options.maxPages);
    warnings.push(`ocr_partial: read ${options.maxPages} of ${total} scanned pages`);
  }
  try {
    const result = await ocrDocument({
      kind: parsed.ocr.kind,
      data,
      pages,
      candidates: ocrLanguagesFor(options.kb?.languages),
      store: ocrStore(ctx),
      allowDownload: ctx.options.allowDownload,
      runPage,
      concurrency: pool === 'in-thread' ? 1 : pool.limits.size,
      signal: options.signal,
      onPage: options.onPage,
    });
    const merged = mergeOcr(parsed, result);
    return warnings.length ? { ...merged, warnings: [...merged.warnings, ...warnings] } : merged;
  } catch (err) {
    if (isCancelled(err) || err instanceof RagError) throw err;
    throw new RagError(
      'parse_failed',
      `OCR of ${options.filename ?? 'the document'} failed: ${err instanceof Error ? err.message : String(err)}`,
      {
        details: { reason: 'ocr_failed', ...(options.filename ? { file: options.filename } : {}) },
        cause: err,
      },
    );
  }
}

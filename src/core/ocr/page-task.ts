import os from 'node:os';
import { RagError } from '../../shared/errors.js';
import { TesseractEngine } from './engine.js';
import { imagePages, type ImagePages } from './image-pages.js';
import type { PageImage } from './page-image.js';
import { OcrLanguageStore } from './lang-store.js';
import { readPage, type PageReading } from './page-ocr.js';
import { OCR_DPI, openPdf, type OpenPdf } from './render-pdf.js';

/**
 * One OCR page as a task: open the document (kept open for the next page of the same document), draw or decode
 * the page, read it. It runs wherever the caller runs it: in a parse-pool worker (the app: untrusted bytes,
 * memory and time limits, never on the main thread) or in this thread (tests, bench). The Tesseract engine is
 * one per thread, kept warm between pages and documents. No network here: languages not on disk come back in
 * `missing`, and the caller (ocr-document.ts) fetches them and asks again.
 */
export interface OcrPageTask {
  /** Names the document across its page tasks, so the opened document is reused. */
  doc_key: string;
  kind: 'pdf' | 'image';
  /** The file's bytes; a SharedArrayBuffer-backed view crosses to a worker without a copy. */
  data: Uint8Array;
  /** 1-based. */
  page: number;
  candidates: string[];
  previous?: string | undefined;
  /** `<data>/models`. */
  models_dir: string;
  dpi?: number;
}

export interface OcrPageResult {
  page: number;
  /** Pages in the document (PDF pages, TIFF images). */
  page_count: number;
  reading: PageReading | undefined;
  tried: string[];
  missing: string[];
  width: number;
  height: number;
}

interface OpenSource {
  key: string;
  pageCount: number;
  image(page: number, dpi: number): Promise<PageImage>;
  close(): Promise<void>;
}

let engine: TesseractEngine | undefined;
let engineDir: string | undefined;
let open: OpenSource | undefined;

function engineFor(modelsDir: string): { engine: TesseractEngine; store: OcrLanguageStore } {
  const store = new OcrLanguageStore({ modelsDir, allowDownload: false });
  if (!engine || engineDir !== store.dir) {
    void engine?.dispose();
    engine = new TesseractEngine({ store, slots: 1, idleMs: 60_000 });
    engineDir = store.dir;
  }
  return { engine, store };
}

async function openSource(task: OcrPageTask): Promise<OpenSource> {
  if (open?.key === task.doc_key) return open;
  await open?.close();
  open = undefined;
  if (task.kind === 'pdf') {
    const pdf: OpenPdf = await openPdf(task.data);
    open = { key: task.doc_key, pageCount: pdf.pageCount, image: (p, dpi) => pdf.render(p, dpi), close: () => pdf.close() };
  } else {
    const pages: ImagePages = await imagePages(new Uint8Array(task.data)); // out of shared memory: native decoders want their own buffer
    open = { key: task.doc_key, pageCount: pages.count, image: (p) => pages.page(p - 1), close: async () => undefined };
  }
  return open;
}

export async function runOcrPageTask(task: OcrPageTask, signal?: AbortSignal): Promise<OcrPageResult> {
  let source: OpenSource;
  try {
    source = await openSource(task);
  } catch (err) {
    throw new RagError(
      'parse_failed',
      `the ${task.kind === 'pdf' ? 'PDF' : 'image'} could not be opened for OCR: ${String(err instanceof Error ? err.message : err)}`,
      {
        details: { reason: 'corrupt' },
        cause: err,
      },
    );
  }
  if (task.page < 1 || task.page > source.pageCount) {
    throw new RagError('invalid_parameter', `page ${task.page} is not in the document (${source.pageCount} pages)`);
  }
  const dpi = task.dpi ?? OCR_DPI;
  const image = await source.image(task.page, dpi);
  const { engine: e, store } = engineFor(task.models_dir);
  const verdict = await readPage(image.data, {
    engine: e,
    has: (c) => store.has(c),
    candidates: task.candidates,
    previous: task.previous,
    signal,
    ...(task.kind === 'pdf' ? { dpi: image.dpi ?? dpi } : {}),
  });
  return { page: task.page, page_count: source.pageCount, ...verdict, width: image.width, height: image.height };
}

/** Close what this thread keeps open (the last document, the Tesseract workers). */
export async function disposeOcrThread(): Promise<void> {
  await open?.close();
  open = undefined;
  await engine?.dispose();
  engine = undefined;
}

/** Tesseract workers a machine can keep busy: one per two cores, 1 to 4 (a worker uses about one core). */
export function defaultOcrConcurrency(): number {
  const cpus = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(4, Math.floor(cpus / 2)));
}

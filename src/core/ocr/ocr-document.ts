import crypto from 'node:crypto';
import { RagError } from '../../shared/errors.js';
import { OcrCancelledError } from './engine.js';
import type { OcrLanguageStore } from './lang-store.js';
import type { OcrPageResult, OcrPageTask } from './page-task.js';
import { accepted, USABLE_CONFIDENCE, type PageReading } from './page-ocr.js';

/**
 * The OCR of one document, page by page: each page is a task (`runPage`: a parse-pool worker in the app, this
 * thread in tests), so a long scan shares the workers with other files page by page instead of holding one for
 * its whole length, reports progress after every page, and stops at the next page when cancelled. The
 * language found on a page is tried first on the next. Languages not on disk are fetched here (once, with
 * progress, through the store) when the ones at hand cannot read a page, and the page is read again.
 */
export type RunPage = (task: OcrPageTask, signal?: AbortSignal) => Promise<OcrPageResult>;

export interface OcrProgress {
  /** The page just read (1-based). */
  page: number;
  /** Pages read so far, and to read in all. */
  done: number;
  total: number;
  language?: string | undefined;
  /** 0..100 */
  confidence?: number | undefined;
}

export interface OcrDocumentInput {
  kind: 'pdf' | 'image';
  data: Uint8Array;
  /** Pages to read; 'all' for every page (an image's frames, a PDF without any text). */
  pages: number[] | 'all';
  /** Candidate Tesseract codes, most likely first (see ocrLanguagesFor). */
  candidates: string[];
  store: OcrLanguageStore;
  allowDownload: boolean;
  runPage: RunPage;
  /** Pages read at once (default 1; the app passes the pool's size). */
  concurrency?: number;
  signal?: AbortSignal | undefined;
  onPage?: ((p: OcrProgress) => void) | undefined;
}

export interface OcrPageOutcome {
  page: number;
  reading: PageReading | undefined;
}

export interface OcrDocumentResult {
  page_count: number;
  pages: OcrPageOutcome[];
}

/** The bytes in shared memory: page tasks sent to workers then share one copy instead of cloning it per page. */
function shared(data: Uint8Array): Uint8Array {
  if (data.buffer instanceof SharedArrayBuffer) return data;
  const view = new Uint8Array(new SharedArrayBuffer(data.byteLength));
  view.set(data);
  return view;
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new OcrCancelledError();
}

export async function ocrDocument(input: OcrDocumentInput): Promise<OcrDocumentResult> {
  const { store } = input;
  // One page failing stops the pages being read beside it.
  const stopAll = new AbortController();
  const signal = input.signal ? AbortSignal.any([input.signal, stopAll.signal]) : stopAll.signal;
  try {
    return await readDocument(input, store, signal);
  } catch (err) {
    stopAll.abort();
    if (input.signal?.aborted) throw new OcrCancelledError();
    throw err;
  }
}

async function readDocument(input: OcrDocumentInput, store: OcrLanguageStore, signal: AbortSignal): Promise<OcrDocumentResult> {
  const base = {
    doc_key: crypto.randomUUID(),
    kind: input.kind,
    data: shared(input.data),
    candidates: input.candidates,
    models_dir: store.modelsDir,
  };
  let previous: string | undefined;
  const unavailable: RagError[] = [];

  const readOne = async (page: number): Promise<OcrPageResult> => {
    throwIfCancelled(signal);
    const first = await input.runPage({ ...base, page, previous }, signal);
    const reading = first.reading;
    if (first.missing.length === 0 || (reading && accepted(reading))) return first;
    // The languages at hand could not read it: fetch the missing ones and try those.
    const got: string[] = [];
    for (const code of first.missing) {
      throwIfCancelled(signal);
      try {
        await store.ensure([code], { allowDownload: input.allowDownload, ...(signal ? { signal } : {}) });
        got.push(code);
      } catch (err) {
        if (signal?.aborted) throw new OcrCancelledError();
        if (!(err instanceof RagError) || err.code !== 'model_unavailable') throw err;
        unavailable.push(err);
      }
    }
    if (got.length === 0) return first;
    const again = await input.runPage({ ...base, page, candidates: got, previous: got[0] }, signal);
    const better = again.reading && (!reading || again.reading.confidence > reading.confidence) ? again : first;
    return { ...better, missing: first.missing.filter((c) => !got.includes(c)) };
  };

  const settle = (r: OcrPageResult): OcrPageOutcome => {
    if (r.reading && r.reading.confidence < USABLE_CONFIDENCE && r.reading.chars >= 3 && r.missing.length && unavailable.length) {
      // Unreadable with what is here, and the language that might read it cannot be had: say so clearly.
      throw unavailable[0]!;
    }
    if (r.reading && r.reading.chars > 0 && accepted(r.reading)) previous = r.reading.language;
    return { page: r.page, reading: r.reading };
  };

  // The first page alone: it finds the language (and the page count of an image file).
  const firstPage = input.pages === 'all' ? 1 : input.pages[0];
  if (firstPage === undefined) return { page_count: 0, pages: [] };
  const head = await readOne(firstPage);
  const pageCount = head.page_count;
  const todo =
    input.pages === 'all' ? Array.from({ length: pageCount }, (_, i) => i + 1) : input.pages.filter((p) => p >= 1 && p <= pageCount);
  const outcomes = new Map<number, OcrPageOutcome>();
  let done = 0;
  const record = (r: OcrPageResult) => {
    const outcome = settle(r);
    outcomes.set(r.page, outcome);
    done++;
    input.onPage?.({
      page: r.page,
      done,
      total: todo.length,
      language: outcome.reading?.language,
      confidence: outcome.reading?.confidence,
    });
  };
  record(head);
  const rest = todo.filter((p) => p !== firstPage);
  let next = 0;
  const lane = async () => {
    while (next < rest.length) {
      const page = rest[next++]!;
      record(await readOne(page));
    }
  };
  const lanes = Math.max(1, Math.min(input.concurrency ?? 1, rest.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return { page_count: pageCount, pages: todo.map((p) => outcomes.get(p) ?? { page: p, reading: undefined }) };
}

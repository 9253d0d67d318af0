import Tesseract from 'tesseract.js';
import { RagError } from '../../shared/errors.js';
import type { OcrLanguageStore } from './lang-store.js';
import { cleanOcrText } from './text-cleanup.js';

/**
 * Tesseract (tesseract.js: the C++ engine compiled to WASM, LSTM models only) behind a small pool. Each pool slot
 * is one tesseract.js worker (its own thread); a slot switches languages with `reinitialize` instead of being
 * respawned, so memory stays bounded by the slot count whatever languages the pages need. Language data is read
 * from the store's folder (`cachePath`, read-only) or, for the bundled English, the npm package (`langPath`).
 * A recognition cannot be interrupted inside the WASM module: cancelling one terminates its slot's worker, which
 * the next request replaces.
 */
export interface OcrParagraph {
  text: string;
  /** 0..100 */
  confidence: number;
}

export interface RecognizeOutcome {
  /** The Tesseract language string used (`eng`, `rus+eng`, `chi_sim`). */
  languages: string;
  paragraphs: OcrParagraph[];
  /** Mean word confidence, 0..100, weighted by characters; 0 for a page without text. */
  confidence: number;
  /** Characters recognised (without spaces). */
  chars: number;
  /** Skew corrected before recognition, in degrees. */
  rotation: number;
}

export interface EngineOptions {
  store: OcrLanguageStore;
  /** Tesseract workers at most (default 1: OCR already keeps one core busy per worker). */
  slots?: number;
  /** A worker idle this long is terminated (default 60 s); the next page starts a new one. */
  idleMs?: number;
}

interface Slot {
  worker: Tesseract.Worker | undefined;
  starting: Promise<Tesseract.Worker> | undefined;
  languages: string | undefined;
  busy: boolean;
  idleTimer: NodeJS.Timeout | undefined;
}

const OEM_LSTM_ONLY = 1;

/** What an aborted OCR rejects with: not a failure of the file, the caller asked to stop. */
export class OcrCancelledError extends Error {
  constructor() {
    super('OCR was cancelled');
    this.name = 'OcrCancelledError';
  }
}

const cancelled = () => new OcrCancelledError();

export function isCancelled(err: unknown): boolean {
  return err instanceof OcrCancelledError;
}

export class TesseractEngine {
  private readonly slots: Slot[];
  private readonly waiting: Array<() => void> = [];
  private readonly idleMs: number;
  private disposed = false;

  constructor(private readonly options: EngineOptions) {
    const n = Math.max(1, Math.floor(options.slots ?? 1));
    this.slots = Array.from({ length: n }, () => ({
      worker: undefined,
      starting: undefined,
      languages: undefined,
      busy: false,
      idleTimer: undefined,
    }));
    this.idleMs = options.idleMs ?? 60_000;
  }

  get slotCount(): number {
    return this.slots.length;
  }

  /**
   * Recognise one page image (PNG, JPEG, WebP, BMP, GIF or PGM bytes) with the given Tesseract language string.
   * The languages' data must be on disk (see OcrLanguageStore.ensure).
   */
  async recognize(image: Uint8Array, languages: string, signal?: AbortSignal, dpi?: number): Promise<RecognizeOutcome> {
    if (signal?.aborted) throw cancelled();
    const slot = await this.acquire(languages, signal);
    let onAbort: (() => void) | undefined;
    try {
      const worker = await this.workerFor(slot, languages);
      // Tesseract's own messages ("Estimating resolution as…") go to its debug file, never to stdout (MCP's channel).
      const params = { rotateAuto: true, debug_file: '/dev/null', ...(dpi ? { user_defined_dpi: String(Math.round(dpi)) } : {}) };
      const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
      const job = worker.recognize(bytes, params as Partial<Tesseract.RecognizeOptions>, { text: true, blocks: true });
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => {
          void this.kill(slot);
          reject(cancelled());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      const { data } = await Promise.race([job, aborted]);
      return toOutcome(data, languages);
    } catch (err) {
      if (isCancelled(err) || err instanceof RagError) throw err;
      // A worker that failed mid-page may be in any state: start afresh next time.
      void this.kill(slot);
      throw new RagError('parse_failed', `OCR failed: ${err instanceof Error ? err.message : String(err)}`, {
        details: { reason: 'ocr_failed' },
        cause: err,
      });
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      this.release(slot);
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all(this.slots.map((s) => this.kill(s)));
    for (const wake of this.waiting.splice(0)) wake();
  }

  // --- slots ---------------------------------------------------------------------------------------

  /** An idle slot, preferring one already set up for these languages; waits when all are busy. */
  private async acquire(languages: string, signal?: AbortSignal): Promise<Slot> {
    for (;;) {
      if (this.disposed) throw new RagError('internal', 'the OCR engine has been disposed');
      if (signal?.aborted) throw cancelled();
      const idle = this.slots.filter((s) => !s.busy);
      const slot = idle.find((s) => s.languages === languages) ?? idle.find((s) => !s.worker) ?? idle[0];
      if (slot) {
        slot.busy = true;
        clearTimeout(slot.idleTimer);
        return slot;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private release(slot: Slot): void {
    slot.busy = false;
    if (slot.worker && !this.disposed) {
      slot.idleTimer = setTimeout(() => void this.kill(slot), this.idleMs);
      slot.idleTimer.unref();
    }
    this.waiting.shift()?.();
  }

  private async workerFor(slot: Slot, languages: string): Promise<Tesseract.Worker> {
    if (slot.worker && slot.languages === languages) return slot.worker;
    const { store } = this.options;
    if (slot.worker) {
      try {
        await slot.worker.reinitialize(languages, OEM_LSTM_ONLY);
        slot.languages = languages;
        return slot.worker;
      } catch {
        await this.kill(slot); // start a clean worker below
      }
    }
    // tesseract.js reports a failed start (missing or bad data) only to `errorHandler`, never by rejecting, and
    // without a handler it throws from its message listener: turn the report into a rejection.
    let failStart: (reason: Error) => void = () => undefined;
    const startFailed = new Promise<never>((_, reject) => (failStart = reject));
    slot.starting = Tesseract.createWorker(languages, OEM_LSTM_ONLY, {
      cachePath: store.dir,
      cacheMethod: 'readOnly',
      ...(store.bundledDir ? { langPath: store.bundledDir } : {}),
      gzip: true,
      errorHandler: (data: unknown) => failStart(new Error(String(data))),
    });
    try {
      slot.worker = await Promise.race([slot.starting, startFailed]);
      slot.languages = languages;
      return slot.worker;
    } catch (err) {
      throw new RagError('model_unavailable', `Tesseract could not start with ${languages}: ${String(err)}`, {
        details: { languages },
        ...(err instanceof Error ? { cause: err } : {}),
      });
    } finally {
      slot.starting = undefined;
    }
  }

  private async kill(slot: Slot): Promise<void> {
    clearTimeout(slot.idleTimer);
    const worker = slot.worker;
    slot.worker = undefined;
    slot.languages = undefined;
    if (worker) await worker.terminate().catch(() => undefined);
  }
}

function toOutcome(page: Tesseract.Page, languages: string): RecognizeOutcome {
  const paragraphs: OcrParagraph[] = [];
  let weighted = 0;
  let chars = 0;
  for (const block of page.blocks ?? []) {
    for (const p of block.paragraphs) {
      const text = cleanOcrText(p.text);
      if (!text) continue;
      let pChars = 0;
      let pWeighted = 0;
      for (const line of p.lines) {
        for (const w of line.words) {
          const n = w.text.replace(/\s+/g, '').length;
          pChars += n;
          pWeighted += n * w.confidence;
        }
      }
      const confidence = pChars ? pWeighted / pChars : p.confidence;
      paragraphs.push({ text, confidence });
      weighted += pWeighted;
      chars += pChars;
    }
  }
  const rotation = page.rotateRadians ? (page.rotateRadians * 180) / Math.PI : 0;
  return { languages, paragraphs, confidence: chars ? weighted / chars : 0, chars, rotation };
}

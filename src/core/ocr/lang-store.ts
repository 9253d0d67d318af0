import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { RagError } from '../../shared/errors.js';
import { downloadBytes, type DownloadProgress } from './lang-download.js';
import { BUNDLED_LANGUAGE, isTesseractCode, KNOWN_LANGUAGES, languageInfo } from './languages.js';
import { decodeTraineddata } from './traineddata.js';

/**
 * OCR language data on this machine: English ships with the app (`@tesseract.js-data/eng`); every other language
 * lives in `<data>/models/tessdata/<code>.traineddata`, downloaded once (with progress) or imported from a folder
 * (Debian's `/usr/share/tesseract-ocr/5/tessdata`, a colleague's copy…). Files land whole: written to a temp file,
 * checked, then renamed, so a reader never sees half a file and a crash leaves at most a temp file behind.
 */

/** Where languages are fetched from; `{code}` is replaced. The LSTM-only data tesseract.js itself uses. */
export const DEFAULT_OCR_DATA_URL = 'https://cdn.jsdelivr.net/npm/@tesseract.js-data/{code}/4.0.0_best_int/{code}.traineddata.gz';

export type OcrLanguageSource = 'bundled' | 'installed';

export interface OcrLanguageState {
  code: string;
  name: string;
  script: string;
  state: 'ready' | 'missing' | 'downloading';
  source?: OcrLanguageSource;
  /** Size of the data on disk, in bytes. */
  bytes?: number;
  /** 0..1 while downloading. */
  progress?: number;
}

export interface OcrDataEvent {
  code: string;
  state: 'downloading' | 'ready' | 'missing';
  progress?: number;
  error?: string;
}

export interface OcrLanguageStoreOptions {
  /** `<data>/models`; languages live in its `tessdata` folder. */
  modelsDir: string;
  /** May missing languages be downloaded (default true). */
  allowDownload?: boolean;
  /** Download URL template (`{code}` is replaced); default RAGDESK_OCR_DATA_URL, else DEFAULT_OCR_DATA_URL. */
  dataUrl?: string;
}

export interface ImportResult {
  imported: Array<{ code: string; bytes: number; from: string }>;
  rejected: Array<{ file: string; reason: string }>;
}

/** The folder of the bundled English data (LSTM-only, gzipped), or undefined when the package is absent. */
export function bundledLangPath(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
    const dir = path.join(path.dirname(pkg), '4.0.0_best_int');
    return fs.existsSync(path.join(dir, `${BUNDLED_LANGUAGE}.traineddata.gz`)) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Write bytes whole: temp file in the same folder, fsync, rename. */
function writeWhole(file: string, data: Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

export class OcrLanguageStore {
  /** `<data>/models`. */
  readonly modelsDir: string;
  /** `<data>/models/tessdata`. */
  readonly dir: string;
  readonly bundledDir: string | undefined;
  readonly allowDownload: boolean;
  private readonly dataUrl: string;
  private readonly downloads = new Map<string, Promise<void>>();
  private readonly progress = new Map<string, number>();
  private readonly listeners = new Set<(e: OcrDataEvent) => void>();

  constructor(options: OcrLanguageStoreOptions) {
    this.modelsDir = path.resolve(options.modelsDir);
    this.dir = path.join(this.modelsDir, 'tessdata');
    this.bundledDir = bundledLangPath();
    this.allowDownload = options.allowDownload ?? true;
    this.dataUrl = options.dataUrl ?? process.env.RAGDESK_OCR_DATA_URL ?? DEFAULT_OCR_DATA_URL;
  }

  fileOf(code: string): string {
    return path.join(this.dir, `${code}.traineddata`);
  }

  /** Where a language's data is, or undefined when it is not on this machine. */
  sourceOf(code: string): OcrLanguageSource | undefined {
    if (!isTesseractCode(code)) return undefined;
    if (fs.existsSync(this.fileOf(code))) return 'installed';
    if (code === BUNDLED_LANGUAGE && this.bundledDir) return 'bundled';
    return undefined;
  }

  has(code: string): boolean {
    return this.sourceOf(code) !== undefined;
  }

  /** The known languages and any other installed one, with their state. */
  list(): OcrLanguageState[] {
    const installed = fs.existsSync(this.dir)
      ? fs
          .readdirSync(this.dir)
          .filter((f) => f.endsWith('.traineddata'))
          .map((f) => f.slice(0, -'.traineddata'.length))
          .filter(isTesseractCode)
      : [];
    const codes = [...new Set([...KNOWN_LANGUAGES.map((l) => l.code), ...installed.sort()])];
    return codes.map((code) => {
      const info = languageInfo(code);
      const base = { code, name: info.name, script: info.script };
      const downloading = this.progress.get(code);
      if (downloading !== undefined) return { ...base, state: 'downloading', progress: downloading };
      const source = this.sourceOf(code);
      if (!source) return { ...base, state: 'missing' };
      const file = source === 'installed' ? this.fileOf(code) : path.join(this.bundledDir!, `${code}.traineddata.gz`);
      return { ...base, state: 'ready', source, bytes: fs.statSync(file).size };
    });
  }

  onEvent(listener: (e: OcrDataEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Make sure every language is on disk: download the missing ones (once, even when asked concurrently) when
   * downloads are allowed. Throws `model_unavailable` naming the language, where it was looked for and how to
   * import it, when one cannot be had.
   */
  async ensure(codes: readonly string[], options: { allowDownload?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    const allow = options.allowDownload ?? this.allowDownload;
    for (const code of codes) {
      if (!isTesseractCode(code)) throw new RagError('invalid_parameter', `"${code}" is not a Tesseract language code`);
      if (this.has(code)) continue;
      if (!allow) throw this.unavailable(code, 'downloads are off');
      let running = this.downloads.get(code);
      if (!running) {
        running = this.download(code, options.signal).finally(() => this.downloads.delete(code));
        this.downloads.set(code, running);
      }
      await running;
    }
  }

  /** Copy the language data found in a folder (or one file) into the store. Only `codes` when given. */
  importFrom(source: string, codes?: readonly string[]): ImportResult {
    const abs = path.resolve(source);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (!stat) throw new RagError('invalid_parameter', `no such file or folder: ${source}`);
    const files = stat.isDirectory() ? fs.readdirSync(abs).map((f) => path.join(abs, f)) : [abs];
    const result: ImportResult = { imported: [], rejected: [] };
    for (const file of files.sort()) {
      const m = /^(.+)\.traineddata(\.gz)?$/.exec(path.basename(file));
      if (!m) continue;
      const code = m[1]!;
      if (codes && !codes.includes(code)) continue;
      if (!isTesseractCode(code)) {
        result.rejected.push({ file, reason: `"${code}" is not a Tesseract language code` });
        continue;
      }
      if (result.imported.some((i) => i.code === code)) continue; // both foo.traineddata and foo.traineddata.gz
      try {
        const data = decodeTraineddata(fs.readFileSync(file), path.basename(file));
        writeWhole(this.fileOf(code), data);
        result.imported.push({ code, bytes: data.byteLength, from: file });
        this.emit({ code, state: 'ready' });
      } catch (err) {
        result.rejected.push({ file, reason: err instanceof Error ? err.message : String(err) });
      }
    }
    return result;
  }

  /** Remove an installed language (the bundled English data stays). */
  remove(code: string): boolean {
    if (!isTesseractCode(code) || !fs.existsSync(this.fileOf(code))) return false;
    fs.rmSync(this.fileOf(code), { force: true });
    return true;
  }

  urlOf(code: string): string {
    return this.dataUrl.includes('{code}')
      ? this.dataUrl.replaceAll('{code}', code)
      : `${this.dataUrl.replace(/\/$/, '')}/${code}.traineddata.gz`;
  }

  private async download(code: string, signal: AbortSignal | undefined): Promise<void> {
    const url = this.urlOf(code);
    this.progress.set(code, 0);
    this.emit({ code, state: 'downloading', progress: 0 });
    try {
      const onProgress = (p: DownloadProgress) => {
        if (p.fraction === undefined) return;
        this.progress.set(code, p.fraction);
        this.emit({ code, state: 'downloading', progress: p.fraction });
      };
      const raw = await downloadBytes(url, { onProgress, ...(signal ? { signal } : {}) });
      const data = decodeTraineddata(raw, url);
      writeWhole(this.fileOf(code), data);
      this.progress.delete(code);
      this.emit({ code, state: 'ready' });
    } catch (err) {
      this.progress.delete(code);
      const why = err instanceof Error ? err.message : String(err);
      this.emit({ code, state: 'missing', error: why });
      if (err instanceof RagError) throw err;
      throw this.unavailable(code, `the download from ${url} failed (no network?): ${why}`, err);
    }
  }

  private unavailable(code: string, why: string, cause?: unknown): RagError {
    const { name } = languageInfo(code);
    return new RagError(
      'model_unavailable',
      `OCR language data for ${name} (${code}) is not in ${this.dir} and ${why}. Import it from a folder with ` +
        `\`ragdesk models import <folder>\` (e.g. /usr/share/tesseract-ocr/5/tessdata), or allow downloads.`,
      { details: { language: code, dir: this.dir, state: 'missing' }, ...(cause === undefined ? {} : { cause }) },
    );
  }

  private emit(event: OcrDataEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // a listener's failure is its own
      }
    }
  }
}

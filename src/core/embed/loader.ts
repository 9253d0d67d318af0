import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelState } from '../../shared/contract/index.js';
import type { ModelSpec } from './model-spec.js';
import type { WorkerFailure } from './protocol.js';

/**
 * The pure parts of model loading, shared by the worker (embed-worker.ts) and the main-thread tokenizer
 * (token-counter.ts): where a model's files live, whether they are all there, which ONNX dtype to load,
 * progress-event mapping and error classification. Nothing here imports transformers.js.
 */

/** ONNX file suffix per transformers.js dtype (its DEFAULT_DTYPE_SUFFIX_MAPPING, the ones we use). */
const DTYPE_SUFFIX: Record<string, string> = { fp32: '', fp16: '_fp16', q8: '_quantized', int8: '_int8', uint8: '_uint8', q4: '_q4' };

export interface LocalCheck {
  /** Folder that holds (or will hold, once downloaded) the model's files. */
  dir: string;
  /** Every file the load needs is on disk. */
  complete: boolean;
  missing: string[];
  /** The dtype to pass to transformers.js (undefined: library default). */
  dtype?: string;
}

/** A JSON file's object (not an array), or undefined when it is missing, unreadable or not an object. */
export function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Dtype declared by a model's config (`transformers.js_config.dtype`), when it is a plain string. */
function configDtype(dir: string): string | undefined {
  const cfg = readJson(path.join(dir, 'config.json'));
  const tjs = cfg?.['transformers.js_config'];
  const dtype = tjs && typeof tjs === 'object' ? (tjs as Record<string, unknown>).dtype : undefined;
  return typeof dtype === 'string' && dtype in DTYPE_SUFFIX ? dtype : undefined;
}

/**
 * onnxruntime session options for every model the worker loads. Its intra-op threads do not spin-wait between
 * runs: by default a pool thread busy-waits for the next parallel section, and the worker runs a model for a few
 * milliseconds per batch, then tokenizes in JavaScript; the spinner kept a second core at 100 % all that time,
 * the core parsing and chunking need (potion-base-4M: 96 batches, 1186 ms CPU in 626 ms; without spinning
 * 507 ms CPU in 491 ms). Threads still share the work of a big run.
 */
export const ORT_SESSION_OPTIONS = {
  extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
};

/** The weights file transformers.js loads for a dtype, relative to the model folder. */
export const onnxFile = (dtype: string) => `onnx/model${DTYPE_SUFFIX[dtype] ?? ''}.onnx`;

/**
 * Pick the dtype for a model folder: the preset's, else the config's when its file exists, else fp32 when
 * `onnx/model.onnx` exists, else q8 when only `onnx/model_quantized.onnx` does.
 */
export function pickDtype(dir: string, preferred?: string): string | undefined {
  if (preferred) return preferred;
  const fromConfig = configDtype(dir);
  if (fromConfig && existsSync(path.join(dir, onnxFile(fromConfig)))) return fromConfig;
  if (existsSync(path.join(dir, onnxFile('fp32')))) return 'fp32';
  if (existsSync(path.join(dir, onnxFile('q8')))) return 'q8';
  return fromConfig;
}

/** Where the model lives on disk and whether it is complete. Hub models live in `<cacheDir>/<owner>/<name>`. */
export function checkLocal(spec: ModelSpec, cacheDir: string): LocalCheck {
  const dir = spec.source === 'folder' ? spec.resolved : path.join(cacheDir, spec.resolved);
  const dtype = existsSync(dir) ? pickDtype(dir, spec.dtype) : spec.dtype;
  const needed = ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnxFile(dtype ?? 'fp32')];
  const missing = needed.filter((f) => !existsSync(path.join(dir, f)));
  return { dir, complete: missing.length === 0, missing, ...(dtype ? { dtype } : {}) };
}

/** The tokenizer files of a model, when both are on disk (the main thread never downloads). */
export function localTokenizerDir(spec: ModelSpec, cacheDir: string): string | undefined {
  const dir = spec.source === 'folder' ? spec.resolved : path.join(cacheDir, spec.resolved);
  return existsSync(path.join(dir, 'tokenizer.json')) && existsSync(path.join(dir, 'tokenizer_config.json')) ? dir : undefined;
}

// --- progress ------------------------------------------------------------------------------------

/** A transformers.js progress_callback payload (the fields we read). */
export interface TransformersProgress {
  status: string;
  file?: string;
  /** 0..100 */
  progress?: number;
}

export type ProgressSink = (state: ModelState, progress?: number, file?: string) => void;

/**
 * Turn transformers.js progress callbacks into our events. While downloading, `progress_total` (all files)
 * drives a 0..1 `downloading` progress, with the name of the file last seen; per-file `progress` is used only
 * when no total is reported. Events are thinned to 1% steps. Loads from disk report nothing here (the caller
 * reports `loading`), because transformers.js "downloads" local files too.
 */
export function createProgressMapper(downloading: boolean, sink: ProgressSink): (p: TransformersProgress) => void {
  let lastFile: string | undefined;
  let lastSent = -1;
  let sawTotal = false;
  return (p) => {
    if (!downloading) return;
    if (p.file) lastFile = p.file;
    if (p.status === 'progress_total') sawTotal = true;
    else if (p.status !== 'progress' || sawTotal) return;
    const fraction = Math.min(1, Math.max(0, (p.progress ?? 0) / 100));
    if (fraction < 1 && fraction - lastSent < 0.01) return;
    if (fraction === lastSent) return;
    lastSent = fraction;
    sink('downloading', fraction, lastFile);
  };
}

// --- errors --------------------------------------------------------------------------------------

const NETWORK_ERROR = /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network|socket/i;
const NOT_FOUND = /not found|could not locate|ModelFileNotFoundError|status(?: code)?:? ?40[134]|\b40[134]\b/i;

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}

export interface FailureContext {
  spec: ModelSpec;
  /** The model's folder (see checkLocal). */
  dir: string;
  /** `<data>/models`. */
  cacheDir: string;
  allowDownload: boolean;
  missing?: string[];
}

/** The failure for a model whose files are not on disk and will not be downloaded. */
export function missingFailure(ctx: FailureContext): WorkerFailure {
  const { spec, dir, cacheDir } = ctx;
  const files = ctx.missing?.length ? ` (missing: ${ctx.missing.join(', ')})` : '';
  const message =
    spec.source === 'folder'
      ? `model "${spec.model}" is not a usable model folder: ${dir} needs config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx${files}`
      : `model "${spec.model}" (${spec.resolved}) is not in ${cacheDir} and downloads are off`;
  const cause = ctx.missing?.length ? `files not found in ${dir}: ${ctx.missing.join(', ')}` : `nothing found in ${dir}`;
  return { code: 'model_unavailable', message, state: 'missing', details: { model: spec.model, resolved: spec.resolved, dir, cause } };
}

/**
 * The failure a load would end in without trying it: the model is not complete on disk and will not be downloaded
 * (downloads off, or not a hub model). Undefined when a load could succeed.
 */
export function missingOnDisk(spec: ModelSpec, cacheDir: string, allowDownload: boolean): WorkerFailure | undefined {
  const local = checkLocal(spec, cacheDir);
  if (local.complete || (allowDownload && spec.source === 'hub')) return undefined;
  return missingFailure({ spec, dir: local.dir, cacheDir, allowDownload, missing: local.missing });
}

/** Classify an error thrown while loading: not found / no network → `missing`, anything else → `error`. */
export function classifyLoadError(err: unknown, ctx: FailureContext): WorkerFailure {
  const { spec, dir } = ctx;
  const text = describe(err);
  const name = err instanceof Error ? err.name : '';
  const where = spec.source === 'folder' ? dir : ctx.cacheDir;
  const details = { model: spec.model, resolved: spec.resolved, dir, cause: text };
  if (NETWORK_ERROR.test(text) && spec.source === 'hub' && ctx.allowDownload) {
    return {
      code: 'model_unavailable',
      state: 'missing',
      details,
      message: `model "${spec.model}" (${spec.resolved}) is not in ${where} and the download failed (no network?): ${text}`,
    };
  }
  if (name === 'ModelFileNotFoundError' || NOT_FOUND.test(text)) {
    const how = spec.source === 'folder' ? 'the folder is incomplete' : ctx.allowDownload ? 'the download failed' : 'downloads are off';
    return {
      code: 'model_unavailable',
      state: 'missing',
      details,
      message: `model "${spec.model}" (${spec.resolved}) is not in ${where} and ${how}: ${text}`,
    };
  }
  return {
    code: 'model_unavailable',
    state: 'error',
    details,
    message: `model "${spec.model}" (${spec.resolved}) failed to load: ${text}`,
  };
}

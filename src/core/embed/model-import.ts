import fs from 'node:fs';
import path from 'node:path';
import { RagError } from '../../shared/errors.js';
import { readJsonFile, writeFileAtomic } from '../util/json-file.js';
import { onnxFile, pickDtype } from './loader.js';
import { isHubId } from './model-spec.js';
import { MODEL_PRESETS, type ModelKind, type ModelPresetDef } from './presets.js';

/**
 * Importing a model folder for offline use (`ragdesk models import DIR`, the Models section of the UI): the folder
 * is checked (config, tokenizer, ONNX weights, dimension), its files are copied into `<data>/models/<id>`, where the
 * loader finds hub models, and the import is recorded in `<data>/models/imported.json`. From then on the model
 * string names it and it loads from disk with no network:
 * - a folder of a preset's model (e.g. `multilingual-e5-small`, or `--as multilingual`) lands where that preset
 *   downloads to, so every KB on the preset works offline with nothing else to change;
 * - any other folder becomes `local/<name>` (`--model local/<name>` for a KB).
 * The trial load that confirms the dimension runs in the service (services/model-import.ts), through the worker.
 */

/** Prefix of the model strings of imported folders that are not a preset's model. */
export const LOCAL_MODELS = 'local';
const IMPORTED_FILE = 'imported.json';

export interface FolderCheck {
  dir: string;
  /** transformers.js dtype of the weights that will load. */
  dtype: string;
  /** The weights, relative to the folder (e.g. `onnx/model.onnx`). */
  onnx: string;
  /** The vector dimension config.json names (embedding models). */
  dim?: number;
}

export interface ImportTarget {
  /** The model string that names the import from then on (a preset name or `local/<name>`). */
  model: string;
  /** Its id under `<data>/models` (the preset's hub id, or `local/<name>`). */
  id: string;
  preset?: ModelPresetDef;
}

export interface ImportRecord {
  model: string;
  kind: ModelKind;
  source_dir: string;
  imported_at: string;
  dtype: string;
  dim: number | null;
}

function readJson(file: string): { value?: Record<string, unknown>; problem?: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { problem: `${path.basename(file)} is missing` };
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { value: value as Record<string, unknown> };
    return { problem: `${path.basename(file)} is not a JSON object` };
  } catch (err) {
    return { problem: `${path.basename(file)} is not valid JSON (${(err as Error).message})` };
  }
}

/** The vector dimension a model's config.json names. */
export function configDim(config: Record<string, unknown>): number | undefined {
  for (const key of ['hidden_size', 'hidden_dim', 'dim', 'd_model']) {
    const v = config[key];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  }
  return undefined;
}

/**
 * Check a transformers.js model folder without loading it: `config.json` (with a dimension for embedding models),
 * `tokenizer.json` (a tokenizer model) and `tokenizer_config.json`, and the ONNX weights for `dtype` (a preset's,
 * else the config's or whatever `onnx/` holds). Throws `invalid_parameter` listing every problem found.
 */
export function checkModelFolder(dir: string, kind: ModelKind, dtype?: string): FolderCheck {
  const problems: string[] = [];
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new RagError('invalid_parameter', `model folder ${dir} does not exist`, { details: { dir } });
  }
  if (!stat.isDirectory()) throw new RagError('invalid_parameter', `${dir} is a file, not a model folder`, { details: { dir } });
  const config = readJson(path.join(dir, 'config.json'));
  if (config.problem) problems.push(config.problem);
  const tokenizer = readJson(path.join(dir, 'tokenizer.json'));
  if (tokenizer.problem) problems.push(tokenizer.problem);
  else if (!tokenizer.value?.model) problems.push('tokenizer.json has no tokenizer model');
  const tokenizerConfig = readJson(path.join(dir, 'tokenizer_config.json'));
  if (tokenizerConfig.problem) problems.push(tokenizerConfig.problem);
  const chosen = pickDtype(dir, dtype) ?? 'fp32';
  const onnx = onnxFile(chosen);
  const weights = path.join(dir, onnx);
  const size = fs.existsSync(weights) ? fs.statSync(weights).size : -1;
  if (size <= 0) {
    const present = fs.existsSync(path.join(dir, 'onnx')) ? fs.readdirSync(path.join(dir, 'onnx')).filter((f) => f.endsWith('.onnx')) : [];
    problems.push(
      size === 0
        ? `${onnx} is empty`
        : `the ONNX weights ${onnx} are missing${present.length ? ` (onnx/ holds ${present.join(', ')})` : ' (no onnx/ folder with .onnx files)'}`,
    );
  }
  const dim = config.value ? configDim(config.value) : undefined;
  if (kind === 'embedding' && config.value && dim === undefined) problems.push('config.json names no vector dimension (hidden_size)');
  if (problems.length > 0) {
    throw new RagError('invalid_parameter', `${dir} is not a usable ${kind} model folder: ${problems.join('; ')}`, {
      details: { dir, problems },
    });
  }
  return { dir, dtype: chosen, onnx, ...(dim !== undefined ? { dim } : {}) };
}

/** The model's own name from a folder path: its basename, or `owner/name` from a Hugging Face cache snapshot. */
function folderModelName(dir: string): string {
  const parts = path.resolve(dir).split(path.sep);
  const cached = parts.findLast((p) => p.startsWith('models--'));
  if (cached) return cached.slice('models--'.length).split('--').join('/');
  return parts.at(-1) ?? '';
}

/**
 * Where an import goes. `as` names a preset (its files then serve that preset) or the local name; without it a
 * folder named like a preset's model (`multilingual-e5-small`, `Xenova/multilingual-e5-small`, a hub cache
 * snapshot of it) serves that preset, and anything else becomes `local/<folder name>`.
 */
export function importTarget(dir: string, kind: ModelKind, as?: string): ImportTarget {
  const ofKind = MODEL_PRESETS.filter((p) => p.kind === kind);
  if (as !== undefined) {
    const preset = ofKind.find((p) => p.name === as || p.model_id === as);
    if (preset) return { model: preset.name, id: preset.model_id, preset };
    const other = MODEL_PRESETS.find((p) => p.name === as);
    if (other) throw new RagError('invalid_parameter', `${as} is a ${other.kind} preset, not a ${kind} model`);
    if (!/^[A-Za-z0-9][\w.-]{0,95}$/.test(as) || as.includes('..')) {
      throw new RagError('invalid_parameter', `"${as}" cannot name a model: use letters, digits, ".", "-" and "_" (up to 96)`);
    }
    return { model: `${LOCAL_MODELS}/${as}`, id: `${LOCAL_MODELS}/${as}` };
  }
  const name = folderModelName(dir);
  const base = name.split('/').at(-1)!;
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const preset = ofKind.find((p) => same(p.model_id, name) || same(p.model_id.split('/')[1]!, base));
  if (preset) return { model: preset.name, id: preset.model_id, preset };
  let local =
    base
      .replace(/[^\w.-]+/g, '-')
      .slice(0, 96)
      .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '') || 'model';
  if (local.includes('..') || !isHubId(`${LOCAL_MODELS}/${local}`)) local = 'model';
  return { model: `${LOCAL_MODELS}/${local}`, id: `${LOCAL_MODELS}/${local}` };
}

/** The files a model needs at run time: the top-level files (config, tokenizer, vocab…) and the chosen weights. */
function neededFiles(src: string, onnx: string): string[] {
  const top = fs
    .readdirSync(src, { withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name);
  const onnxDir = path.dirname(onnx);
  const weights = fs
    .readdirSync(path.join(src, onnxDir))
    .filter(
      (f) =>
        f === path.basename(onnx) ||
        f.startsWith(`${path.basename(onnx)}_data`) ||
        f.startsWith(`${path.basename(onnx, '.onnx')}.onnx_data`),
    )
    .map((f) => path.join(onnxDir, f));
  return [...top, ...weights];
}

export interface CopyResult {
  files: number;
  bytes: number;
  /** A model was already there and has been replaced. */
  replaced: boolean;
  /** Keep the new files (a replaced folder is removed). */
  commit(): void;
  /** Undo the copy: the new files go, a replaced folder comes back. */
  undo(): void;
}

/**
 * Copy the model's files into `dest`: into a staging folder first, then renamed into place, so a reader (the
 * embedding worker) sees the old folder or the new one, never half of one. An existing import is kept unless
 * `replace`; a folder downloaded there earlier (not an import) is replaced, since the import asks for that model.
 */
export function copyModelFolder(src: string, dest: string, onnx: string, options: { replace: boolean; imported: boolean }): CopyResult {
  if (path.resolve(src) === path.resolve(dest))
    throw new RagError('invalid_parameter', `${src} is already in the data dir's models folder`);
  const exists = fs.existsSync(dest);
  if (exists && options.imported && !options.replace) {
    throw new RagError('invalid_parameter', `a model is already imported at ${dest}: pass replace (--replace) to import over it`, {
      details: { dir: dest },
    });
  }
  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const staging = `${dest}.importing-${stamp}`;
  const old = `${dest}.replaced-${stamp}`;
  let bytes = 0;
  const files = neededFiles(src, onnx);
  try {
    for (const rel of files) {
      const to = path.join(staging, rel);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(path.join(src, rel), to);
      bytes += fs.statSync(to).size;
    }
    if (exists) fs.renameSync(dest, old);
    fs.renameSync(staging, dest);
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (exists && fs.existsSync(old) && !fs.existsSync(dest)) fs.renameSync(old, dest);
    throw err;
  }
  return {
    files: files.length,
    bytes,
    replaced: exists,
    commit: () => fs.rmSync(old, { recursive: true, force: true }),
    undo() {
      fs.rmSync(dest, { recursive: true, force: true });
      if (exists && fs.existsSync(old)) fs.renameSync(old, dest);
    },
  };
}

/** The last read of each imports file, by path: model status is asked for by searches, the file rarely changes. */
const importsRead = new Map<string, { stamp: string; imports: Record<string, ImportRecord> }>();

/**
 * The imports recorded in `<data>/models/imported.json`, by id (a copy). The file is read again only when its
 * identity, size or mtime changed (it is replaced whole by an atomic rename, here or by another process).
 */
export function readImports(modelsDir: string): Record<string, ImportRecord> {
  const file = path.join(modelsDir, IMPORTED_FILE);
  try {
    const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
    if (!st) return {};
    const stamp = `${st.ino}:${st.size}:${st.mtimeNs}`;
    let read = importsRead.get(file);
    if (read?.stamp !== stamp) {
      read = { stamp, imports: readJsonFile<Record<string, ImportRecord>>(file, {}) };
      importsRead.set(file, read);
    }
    return { ...read.imports };
  } catch {
    return {};
  }
}

export function recordImport(modelsDir: string, id: string, record: ImportRecord): void {
  const all = readImports(modelsDir);
  all[id] = record;
  writeFileAtomic(path.join(modelsDir, IMPORTED_FILE), `${JSON.stringify(all, null, 2)}\n`, 0o644);
}

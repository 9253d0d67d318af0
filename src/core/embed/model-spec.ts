import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RagError } from '../../shared/errors.js';
import { findPreset, prefixesFor, type ModelKind, type Prefixes } from './presets.js';
import { isRemoteModel } from './remote/remote-spec.js';

/**
 * What a model string means, resolved on the main thread and sent to the worker:
 * - a preset name (`multilingual`, `english`, `rerank`) → its hub id, preset dtype and prefixes;
 * - an absolute or `./`/`../`/`~/` path, or a relative path to an existing folder with `config.json` → a folder
 *   model, loaded the transformers.js way: `localModelPath = dirname`, name = basename;
 * - otherwise a hub id (`owner/name`), looked up in `<data>/models` and downloaded there when allowed.
 * Remote embedders (`ollama:…`, `openai:…`) are not transformers.js models: see remote/remote-spec.ts.
 */
export interface ModelSpec {
  /** The model string as configured. */
  model: string;
  kind: ModelKind;
  source: 'hub' | 'folder';
  /** Hub id or absolute folder path. */
  resolved: string;
  /** The name passed to transformers.js (hub id, folder basename, or the absolute path for odd folder names). */
  name: string;
  /** For folders: the directory transformers.js reads `name` from. */
  localModelPath?: string;
  /** transformers.js dtype; undefined: decide at load time (folders: from files/config; hub ids: library default). */
  dtype?: string;
  prefixes: Prefixes;
  pooling: 'mean';
  normalize: true;
}

/** The hub-id syntax transformers.js accepts (its REPO_ID_REGEX, without `..` / `--`). */
const HUB_ID = /^(\b[\w\-.]+\b\/)?\b[\w\-.]{1,96}\b$/;

export function isHubId(value: string): boolean {
  return HUB_ID.test(value) && !value.includes('..') && !value.includes('--');
}

function looksLikePath(model: string): boolean {
  return path.isAbsolute(model) || model === '.' || model === '~' || /^(\.{1,2}|~)[\\/]/.test(model) || model.includes('\\');
}

function isModelFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory() && existsSync(path.join(dir, 'config.json'));
  } catch {
    return false;
  }
}

export function expandHome(p: string): string {
  if (p === '~') return os.homedir();
  if (/^~[\\/]/.test(p)) return path.join(os.homedir(), p.slice(2));
  return p;
}

function folderSpec(model: string, kind: ModelKind, abs: string): ModelSpec {
  const base = path.basename(abs);
  const byName = isHubId(base);
  return {
    model,
    kind,
    source: 'folder',
    resolved: abs,
    // A basename transformers.js would not accept as a name is passed as the full path instead (it reads
    // non-id names as paths directly).
    name: byName ? base : abs,
    ...(byName ? { localModelPath: path.dirname(abs) } : {}),
    prefixes: prefixesFor(base),
    pooling: 'mean',
    normalize: true,
  };
}

/** Resolve a model string (see ModelSpec). Never touches the network; only checks folders on disk. */
export function resolveModelSpec(model: string, kind: ModelKind, cwd: string = process.cwd()): ModelSpec {
  const trimmed = model.trim();
  if (isRemoteModel(trimmed)) {
    throw new RagError(
      'invalid_parameter',
      kind === 'rerank'
        ? 'rerank models run locally: ollama:/openai: model strings name embedders only'
        : 'remote embedders are not loaded by transformers.js',
    );
  }
  const preset = findPreset(trimmed, kind);
  if (preset) {
    return {
      model,
      kind,
      source: 'hub',
      resolved: preset.model_id,
      name: preset.model_id,
      dtype: preset.dtype,
      prefixes: prefixesFor(preset.model_id),
      pooling: 'mean',
      normalize: true,
    };
  }
  if (looksLikePath(trimmed)) return folderSpec(model, kind, path.resolve(cwd, expandHome(trimmed)));
  const relative = path.resolve(cwd, trimmed);
  if (isModelFolder(relative) || !isHubId(trimmed)) return folderSpec(model, kind, relative);
  return { model, kind, source: 'hub', resolved: trimmed, name: trimmed, prefixes: prefixesFor(trimmed), pooling: 'mean', normalize: true };
}

/** Identity of a loaded model in the manager and the worker. */
export function specKey(spec: Pick<ModelSpec, 'kind' | 'resolved'>): string {
  return `${spec.kind}:${spec.resolved}`;
}

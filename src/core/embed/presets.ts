import type { ModelPreset } from '../../shared/contract/index.js';

/**
 * Model presets. A KB's model string is a preset name, a Hugging Face hub id, or a folder (see model-spec.ts).
 *
 * Why these models:
 * - `multilingual` → Xenova/multilingual-e5-small (default for new KBs). 384-d, 12 layers, trained on ~100
 *   languages including Russian and Chinese (our users keep ru/zh documents next to English ones), one of the
 *   strongest small multilingual retrievers on MTEB/MIRACL for its size, ONNX weights published for
 *   transformers.js. It is an e5 model: it wants `query: ` / `passage: ` prefixes, which we add.
 * - `english` → Xenova/all-MiniLM-L6-v2. 384-d, 6 layers: the de-facto small English sentence embedder, about
 *   3x faster than e5-small and good on English-only corpora. Same dimension as `multilingual`, so switching
 *   presets never needs a different vector column layout (the KB still re-embeds, see DESIGN.md).
 * - `rerank` → Xenova/ms-marco-MiniLM-L-6-v2. The standard small cross-encoder (MS MARCO passage ranking),
 *   6 layers; reranking 50 candidates stays well under a second on a laptop CPU. English-centric: for ru/zh
 *   queries it helps less, which is why rerank is optional.
 *
 * dtype: presets load the 8-bit quantized ONNX files (`q8` → `onnx/model_quantized.onnx`). They are about 4x
 * smaller to download (e5-small: ~118 MB instead of ~470 MB; MiniLM: ~23 MB instead of ~90 MB) and ~2x faster
 * on CPU, at a retrieval-quality cost that is within noise for these models (≲1 point nDCG in published
 * comparisons). Folders load fp32 (`onnx/model.onnx`) unless their config says otherwise, or the quantized file
 * when that is the only one there.
 */

export type ModelKind = 'embedding' | 'rerank';

export interface ModelPresetDef extends ModelPreset {
  /** transformers.js dtype to load (`q8` = onnx/model_quantized.onnx). */
  dtype: 'fp32' | 'q8';
}

export const DEFAULT_EMBEDDING_PRESET = 'multilingual';
export const ENGLISH_EMBEDDING_PRESET = 'english';
export const DEFAULT_RERANK_PRESET = 'rerank';

export const MODEL_PRESETS: readonly ModelPresetDef[] = [
  {
    name: 'multilingual',
    model_id: 'Xenova/multilingual-e5-small',
    kind: 'embedding',
    dim: 384,
    languages: ['multilingual', 'en', 'ru', 'zh'],
    description: 'multilingual-e5-small: 384-d, ~100 languages incl. Russian and Chinese (default for new KBs)',
    dtype: 'q8',
  },
  {
    name: 'english',
    model_id: 'Xenova/all-MiniLM-L6-v2',
    kind: 'embedding',
    dim: 384,
    languages: ['en'],
    description: 'all-MiniLM-L6-v2: 384-d, fast English sentence embeddings',
    dtype: 'q8',
  },
  {
    name: 'rerank',
    model_id: 'Xenova/ms-marco-MiniLM-L-6-v2',
    kind: 'rerank',
    languages: ['en'],
    description: 'ms-marco-MiniLM-L-6-v2 cross-encoder: reranks the top hits (English-centric)',
    dtype: 'q8',
  },
];

/** Presets as the contract describes them (without loader details). */
export function listPresets(): ModelPreset[] {
  return MODEL_PRESETS.map(({ dtype: _dtype, ...p }) => ({ ...p, languages: [...p.languages] }));
}

export function findPreset(name: string, kind?: ModelKind): ModelPresetDef | undefined {
  return MODEL_PRESETS.find((p) => p.name === name && (kind === undefined || p.kind === kind));
}

export interface Prefixes {
  query: string;
  passage: string;
}

const NO_PREFIXES: Prefixes = { query: '', passage: '' };
const E5_PREFIXES: Prefixes = { query: 'query: ', passage: 'passage: ' };

/**
 * The prefixes a model family was trained with, from its hub id or folder name: the e5 family
 * (`intfloat/e5-*`, `multilingual-e5-*`, their Xenova ONNX ports) wants `query: ` / `passage: `;
 * the other supported models want none.
 */
export function prefixesFor(modelIdOrName: string): Prefixes {
  const base = modelIdOrName.split(/[\\/]/).pop() ?? modelIdOrName;
  if (/^(multilingual-)?e5-/i.test(base)) return E5_PREFIXES;
  return NO_PREFIXES;
}

/** Prepend `prefix` to each text (unless the text already starts with it). */
export function applyPrefix(texts: readonly string[], prefix: string): string[] {
  if (!prefix) return [...texts];
  return texts.map((t) => (t.startsWith(prefix) ? t : prefix + t));
}

import type { ModelStatus } from '../../shared/contract/index.js';
import type { ModelSpec } from './model-spec.js';
import { applyPrefix } from './presets.js';
import type { PassageIds } from './passage.js';
import type { Embedder } from './types.js';

/** Passage ids for a batch run: the ids and the model's passage prefix (tokenized in the worker). */
export interface RunIds {
  ids: PassageIds;
  prefix: string;
}

/** What the model manager (model-manager.ts) keeps per model: its spec, status, and where it is loaded. */
export interface ModelEntry {
  key: string;
  spec: ModelSpec;
  status: ModelStatus;
  /** Worker generation the model is loaded in; -1 when it is not loaded. */
  loadedGen: number;
  loading?: { gen: number; allowDownload: boolean; promise: Promise<void> };
  lastFailureAt?: number;
  dim?: number;
  /** The loaded model builds its token rows from given ids (LoadResult.ids). */
  takesIds?: boolean;
}

/** An embedder over a model loaded in the worker: the model's query and passage prefixes applied, batches run by the manager. */
export class WorkerEmbedder implements Embedder {
  constructor(
    readonly model: string,
    private readonly entry: ModelEntry,
    private readonly run: (entry: ModelEntry, texts: string[], urgent: boolean, ids?: RunIds) => Promise<Float32Array[]>,
  ) {}
  get resolved(): string {
    return this.entry.spec.resolved;
  }
  get dim(): number {
    return this.entry.dim ?? 0;
  }
  embedQueries(texts: string[]): Promise<Float32Array[]> {
    return this.run(this.entry, applyPrefix(texts, this.entry.spec.prefixes.query), true);
  }
  /**
   * `ids`: the passages' token ids from the chunker (passage.ts), used when they come from this model's tokenizer,
   * the loaded model takes ids, and its passage prefix adds up with the text (none, or one ending in whitespace).
   */
  embedPassages(texts: string[], ids?: PassageIds): Promise<Float32Array[]> {
    const prefix = this.entry.spec.prefixes.passage ?? '';
    const usable = ids && ids.tokenizer === this.resolved && this.entry.takesIds === true && (prefix === '' || /\s$/.test(prefix));
    if (!usable) return this.run(this.entry, applyPrefix(texts, prefix), false);
    // applyPrefix leaves a text that starts with the prefix as it is: such a text is tokenized.
    const parts = prefix ? ids.parts.map((p, k) => (texts[k]!.startsWith(prefix) ? undefined : p)) : ids.parts;
    return this.run(this.entry, applyPrefix(texts, prefix), false, { ids: { tokenizer: ids.tokenizer, parts }, prefix });
  }
}

import type { Kb, ModelPreset } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { knownDim } from '../embed/known-dim.js';
import type { Embedder } from '../embed/types.js';
import type { ChunkTable } from './chunk-table.js';
import type { Store } from './store.js';

/** The KB's chunk table, created on first write with the model's dimension (recorded on the KB). */
export async function ensureChunkTable(
  store: Store,
  kb: Kb,
  embedder: Embedder | undefined,
  presets: readonly ModelPreset[],
): Promise<ChunkTable> {
  const existing = await store.chunks(kb.kb_id);
  if (existing) {
    if (embedder && existing.dim === 0) {
      await existing.addVectorColumn(embedder.dim);
      store.registry.put({ ...kb, embedding_dim: embedder.dim });
    } else if (embedder && existing.dim !== embedder.dim) {
      throw new RagError(
        'invalid_parameter',
        `knowledge base "${kb.kb_id}" holds ${existing.dim}-d vectors but model ${embedder.resolved} makes ${embedder.dim}-d ones`,
      );
    }
    return existing;
  }
  // Unknown size (model never loaded, not a preset): start without a vector column; it is added on first load.
  const dim = embedder?.dim ?? kb.embedding_dim ?? knownDim(kb.embedding_model, presets) ?? 0;
  const table = await store.createChunks(kb, dim);
  if (dim > 0 && kb.embedding_dim !== dim) store.registry.put({ ...kb, embedding_dim: dim });
  return table;
}

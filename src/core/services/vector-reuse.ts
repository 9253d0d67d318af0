import type { PassageIds } from '../embed/passage.js';
import type { Embedder } from '../embed/types.js';
import type { CoreContext } from './context.js';

/**
 * Vectors a job may reuse instead of embedding again: those of documents it is about to delete, keyed by the
 * exact passage text embedded (title + chunk text). A renamed or moved file whose title and chunks did not
 * change gets its old vectors back; anything else is embedded as usual.
 */
const caches = new WeakMap<CoreContext, Map<string, Map<string, Float32Array>>>();

/** Offer vectors for reuse in a KB; returns a function that withdraws them. */
export function offerVectors(ctx: CoreContext, kbId: string, entries: Iterable<[string, Float32Array]>): () => void {
  let byKb = caches.get(ctx);
  if (!byKb) caches.set(ctx, (byKb = new Map()));
  const cache = byKb.get(kbId) ?? new Map<string, Float32Array>();
  for (const [text, vector] of entries) cache.set(text, vector);
  byKb.set(kbId, cache);
  return () => {
    if (byKb.get(kbId) === cache) byKb.delete(kbId);
  };
}

/**
 * Embed passages, taking the vectors offered for this KB where the text matches (and the size fits). `ids`: the
 * passages' token ids from chunking (embed/passage.ts), passed on for those embedded.
 */
export async function embedReusing(
  ctx: CoreContext,
  kbId: string,
  embedder: Embedder,
  texts: string[],
  ids?: PassageIds,
): Promise<Float32Array[]> {
  const cache = caches.get(ctx)?.get(kbId);
  if (!cache?.size) return embedder.embedPassages(texts, ids);
  const reuse = (t: string) => {
    const v = cache.get(t);
    return v && v.length === embedder.dim ? v : undefined;
  };
  const missingAt = texts.flatMap((t, k) => (reuse(t) ? [] : [k]));
  const missing = missingAt.map((k) => texts[k]!);
  const missingIds = ids ? { tokenizer: ids.tokenizer, parts: missingAt.map((k) => ids.parts[k]) } : undefined;
  const fresh = missing.length ? await embedder.embedPassages(missing, missingIds) : [];
  let at = 0;
  return texts.map((t) => reuse(t) ?? fresh[at++]!);
}

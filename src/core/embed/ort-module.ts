import { createRequire } from 'node:module';
import type * as Ort from 'onnxruntime-node';

let ort: typeof Ort | undefined;

/**
 * onnxruntime-node as transformers.js resolves it (its dependency, not ours): one native binary and version for the
 * models the embedding worker runs itself (bare-model.ts), those transformers.js runs, and the bench's bare loop.
 * Resolving transformers.js' path does not load it.
 */
export function onnxRuntime(): typeof Ort {
  if (!ort) {
    const fromTransformers = createRequire(createRequire(import.meta.url).resolve('@huggingface/transformers'));
    ort = fromTransformers('onnxruntime-node') as typeof Ort;
  }
  return ort;
}

import path from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { batchEncoder } from '../../core/embed/batch-encoder.js';
import { onnxFile, pickDtype } from '../../core/embed/loader.js';
import { onnxRuntime } from '../../core/embed/ort-module.js';
import { resolveModelSpec } from '../../core/embed/model-spec.js';
import { meanPoolNormalize, normalizeRows } from '../../core/embed/pooling.js';
import { applyPrefix } from '../../core/embed/presets.js';

/**
 * The bare loop the embedding bench compares ragdesk with: the same model.onnx in an onnxruntime-node
 * InferenceSession (the onnxruntime-node transformers.js itself loads), the same tokenizer called the same way
 * as embed-worker.ts (batchEncoder: per-word ids, padding, truncation), the same batch size, then the same pooling. No worker, no messages, no copies. Tokenization happens before the timed loop and is timed on its own.
 */
export interface BareLoop {
  /** Tokenize every batch (timed by the caller); returns the feeds, ready to run. */
  tokenize(texts: string[], batch: number): Array<{ feeds: Record<string, Ort.Tensor>; mask: BigInt64Array }>;
  /** Run the model and pool each batch; returns the number of vectors made. */
  run(batches: Array<{ feeds: Record<string, Ort.Tensor>; mask: BigInt64Array }>): Promise<number>;
  release(): Promise<void>;
}

/** `sessionOptions`: onnxruntime's defaults when absent (ragdesk passes ORT_SESSION_OPTIONS). */
export async function openBareLoop(modelDir: string, sessionOptions: Ort.InferenceSession.SessionOptions = {}): Promise<BareLoop> {
  const spec = resolveModelSpec(modelDir, 'embedding');
  // The onnxruntime-node transformers.js resolves: the same binary and version.
  const ort = onnxRuntime();
  const t = await import('@huggingface/transformers');
  t.env.allowRemoteModels = false;
  t.env.allowLocalModels = true;
  t.env.localModelPath = spec.localModelPath ?? path.dirname(modelDir);
  const tokenizer = await t.AutoTokenizer.from_pretrained(spec.name, { local_files_only: true });
  const encode = batchEncoder(tokenizer);
  const session = await ort.InferenceSession.create(path.join(modelDir, onnxFile(pickDtype(modelDir) ?? 'fp32')), {
    logSeverityLevel: 3,
    ...sessionOptions,
  });
  const wanted = session.inputNames;
  return {
    tokenize(texts, batch) {
      const out: Array<{ feeds: Record<string, Ort.Tensor>; mask: BigInt64Array }> = [];
      const all = applyPrefix(texts, spec.prefixes.passage);
      for (let i = 0; i < all.length; i += batch) {
        const enc = encode(all.slice(i, i + batch));
        const feeds: Record<string, Ort.Tensor> = {};
        for (const name of wanted) {
          const x = enc[name];
          if (!x) throw new Error(`the tokenizer gives no ${name} for ${modelDir}`);
          feeds[name] = new ort.Tensor('int64', x.data, x.dims);
        }
        out.push({ feeds, mask: enc.attention_mask!.data });
      }
      return out;
    },
    async run(batches) {
      let n = 0;
      for (const b of batches) {
        const outputs = await session.run(b.feeds);
        const hidden = outputs.last_hidden_state ?? outputs.token_embeddings ?? outputs[session.outputNames[0]!]!;
        const dims = hidden.dims as number[];
        const pooled =
          dims.length === 3
            ? meanPoolNormalize(hidden.data as Float32Array, dims, b.mask)
            : normalizeRows(hidden.data as Float32Array, dims);
        n += dims[0] ?? 0;
        if (pooled.length === 0) throw new Error('no vectors');
      }
      return n;
    },
    release: () => session.release(),
  };
}

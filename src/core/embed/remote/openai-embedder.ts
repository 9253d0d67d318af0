import type { RetryPolicy } from './http-client.js';
import { RemoteEmbedder } from './remote-embedder.js';

/**
 * Embeddings from any OpenAI-compatible endpoint (OpenAI, Azure-style proxies speaking the same shape, vLLM,
 * LM Studio, llama.cpp server, text-embeddings-inference, LiteLLM…): `POST <base>/embeddings {model, input,
 * dimensions?}` → `{data: [{embedding, index}]}`, the key as `Authorization: Bearer …` when one is set.
 * Answers are put back in input order by `index`.
 */
export class OpenAiEmbedder extends RemoteEmbedder {
  protected async requestBatch(texts: string[], policy: RetryPolicy): Promise<unknown[]> {
    const body = { model: this.spec.name, input: texts, ...(this.spec.dimensions ? { dimensions: this.spec.dimensions } : {}) };
    const json = (await this.post(this.spec.endpoint, body, policy)) as { data?: unknown };
    if (!Array.isArray(json?.data)) throw this.invalidResponse('no "data" array');
    const items = json.data as Array<{ embedding?: unknown; index?: unknown }>;
    const out: unknown[] = new Array(items.length);
    const indexed = items.every((item) => typeof item?.index === 'number');
    items.forEach((item, i) => {
      const at = indexed ? (item.index as number) : i;
      if (!Number.isInteger(at) || at < 0 || at >= items.length || out[at] !== undefined)
        throw this.invalidResponse('"index" values are not 0..n-1');
      out[at] = item?.embedding;
    });
    return out;
  }
}

import { RagError } from '../../../shared/errors.js';
import type { RetryPolicy } from './http-client.js';
import { RemoteEmbedder } from './remote-embedder.js';

/**
 * Embeddings from an Ollama server: `POST <base>/api/embed {model, input: [...]}` → `{embeddings: [[...]]}`
 * (Ollama 0.3+, many texts per request). Servers older than that answer 404 "page not found" there; the
 * embedder then switches, once and for good, to `POST <base>/api/embeddings {model, prompt}` → `{embedding}`,
 * one text per request. A model that is not pulled is reported as missing with the `ollama pull` to run.
 */
export class OllamaEmbedder extends RemoteEmbedder {
  private legacy = false;

  protected async requestBatch(texts: string[], policy: RetryPolicy): Promise<unknown[]> {
    if (!this.legacy) {
      try {
        return await this.embedBatch(texts, policy);
      } catch (err) {
        if (!isRouteMissing(err)) throw this.explainMissingModel(err);
        this.legacy = true;
        this.deps.log('info', `${this.label}: /api/embed is not there (Ollama older than 0.3?); using /api/embeddings`);
      }
    }
    const out: unknown[] = [];
    for (const text of texts) out.push(await this.embedOneLegacy(text, policy));
    return out;
  }

  private async embedBatch(texts: string[], policy: RetryPolicy): Promise<unknown[]> {
    const body = { model: this.spec.name, input: texts, ...(this.spec.dimensions ? { dimensions: this.spec.dimensions } : {}) };
    const json = (await this.post(this.spec.endpoint, body, policy)) as { embeddings?: unknown };
    if (!Array.isArray(json?.embeddings)) throw this.invalidResponse('no "embeddings" array');
    return json.embeddings;
  }

  private async embedOneLegacy(text: string, policy: RetryPolicy): Promise<unknown> {
    try {
      const json = (await this.post(`${this.spec.baseUrl}/api/embeddings`, { model: this.spec.name, prompt: text }, policy)) as {
        embedding?: unknown;
      };
      if (!Array.isArray(json?.embedding)) throw this.invalidResponse('no "embedding" array');
      return json.embedding;
    } catch (err) {
      throw this.explainMissingModel(err);
    }
  }

  private explainMissingModel(err: unknown): unknown {
    if (!(err instanceof RagError) || err.details?.status !== 404) return err;
    return new RagError('model_unavailable', this.redact(`${err.message}; pull it on that server with \`ollama pull ${this.spec.name}\``), {
      details: { ...err.details, state: 'missing' },
    });
  }
}

/** A 404 that is about the route, not the model ("404 page not found" from an Ollama without /api/embed). */
function isRouteMissing(err: unknown): boolean {
  if (!(err instanceof RagError) || err.details?.status !== 404) return false;
  const said = err.details.server_message;
  return typeof said !== 'string' || !/model/i.test(said);
}

import { RagError } from '../../../shared/errors.js';
import { applyPrefix } from '../presets.js';
import type { Embedder } from '../types.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { postJson, type RetryPolicy } from './http-client.js';
import type { Redactor, RemoteLog } from './redact.js';
import type { RemoteSpec } from './remote-spec.js';

export interface RemoteEmbedderDeps {
  policy: RetryPolicy;
  /** For embedQueries (a search is waiting): usually a shorter timeout and fewer retries. */
  queryPolicy: RetryPolicy;
  batchSize: number;
  breaker: CircuitBreaker;
  /** Where API keys are read from (default process.env). */
  env: NodeJS.ProcessEnv;
  log: RemoteLog;
  signal?: AbortSignal;
  /** Told about every call's outcome (the manager keeps the model's status from it). */
  onOutcome?: (error?: RagError) => void;
}

/**
 * The shared half of the Ollama and OpenAI-compatible embedders: prefixes, batching, the API key, response
 * validation, L2 normalisation, and the vector dimension (learned from the first answer, checked on every
 * later one). Providers only turn one batch of texts into one request and its answer into number[][].
 */
export abstract class RemoteEmbedder implements Embedder {
  readonly model: string;
  readonly resolved: string;
  protected readonly apiKey: string | undefined;
  protected readonly redact: Redactor;
  private discoveredDim = 0;

  constructor(
    readonly spec: RemoteSpec,
    protected readonly deps: RemoteEmbedderDeps,
    redact: Redactor,
  ) {
    this.model = spec.model;
    this.resolved = spec.resolved;
    this.apiKey = spec.keyEnv ? deps.env[spec.keyEnv] || undefined : undefined;
    this.redact = redact;
  }

  /** 0 until the first answer (or probe) told us. */
  get dim(): number {
    return this.discoveredDim;
  }

  /** How the model is named in messages. */
  get label(): string {
    return `${this.spec.provider} model "${this.spec.name}" at ${this.spec.endpoint}`;
  }

  embedQueries(texts: string[]): Promise<Float32Array[]> {
    return this.embed(applyPrefix(texts, this.spec.prefixes.query), this.deps.queryPolicy);
  }

  embedPassages(texts: string[]): Promise<Float32Array[]> {
    return this.embed(applyPrefix(texts, this.spec.prefixes.passage), this.deps.policy);
  }

  /** One tiny request: proves the endpoint and the model work and learns the dimension. */
  async probe(): Promise<number> {
    await this.embed(['ragdesk probe'], this.deps.policy);
    return this.discoveredDim;
  }

  /** One batch → one vector per text, as plain numbers (validated and normalised by the caller). */
  protected abstract requestBatch(texts: string[], policy: RetryPolicy): Promise<unknown[]>;

  protected post(url: string, body: unknown, policy: RetryPolicy): Promise<unknown> {
    return postJson({
      url,
      body,
      headers: this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {},
      policy,
      breaker: this.deps.breaker,
      redact: this.redact,
      log: this.deps.log,
      label: this.label,
      ...(this.spec.keyEnv ? { authHint: `check the API key in the environment variable ${this.spec.keyEnv}` } : {}),
      ...(this.deps.signal ? { signal: this.deps.signal } : {}),
    });
  }

  protected invalidResponse(what: string): RagError {
    return new RagError('model_unavailable', this.redact(`${this.label} sent an unexpected answer: ${what}`), {
      details: { state: 'error', endpoint: this.spec.endpoint },
    });
  }

  private async embed(texts: string[], policy: RetryPolicy): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    try {
      this.checkKey();
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += this.deps.batchSize) {
        const batch = texts.slice(start, start + this.deps.batchSize);
        const raw = await this.requestBatch(batch, policy);
        out.push(...this.toVectors(raw, batch.length));
      }
      this.deps.onOutcome?.();
      return out;
    } catch (err) {
      const rag =
        err instanceof RagError
          ? err
          : new RagError('model_unavailable', this.redact(`${this.label} failed: ${err instanceof Error ? err.message : String(err)}`));
      this.deps.onOutcome?.(rag);
      throw rag;
    }
  }

  private checkKey(): void {
    if (this.spec.keyEnvExplicit && !this.apiKey) {
      throw new RagError('model_unavailable', `${this.label} needs an API key: the environment variable ${this.spec.keyEnv} is not set`, {
        details: { state: 'error' },
      });
    }
  }

  /** Validate, convert to Float32Array, L2-normalise, and check the dimension. */
  private toVectors(raw: unknown[], expected: number): Float32Array[] {
    if (raw.length !== expected) throw this.invalidResponse(`${raw.length} vectors for ${expected} texts`);
    const vectors = raw.map((v, i) => {
      if (!Array.isArray(v) || v.length === 0) throw this.invalidResponse(`vector ${i} is not a non-empty array of numbers`);
      const out = new Float32Array(v.length);
      let sum = 0;
      for (let j = 0; j < v.length; j++) {
        const x = v[j] as unknown;
        if (typeof x !== 'number' || !Number.isFinite(x))
          throw this.invalidResponse(`vector ${i} holds a value that is not a finite number`);
        out[j] = x;
        sum += x * x;
      }
      const norm = Math.sqrt(sum);
      if (norm > 0) for (let j = 0; j < out.length; j++) out[j] = out[j]! / norm;
      return out;
    });
    const dim = vectors[0]!.length;
    if (vectors.some((v) => v.length !== dim)) throw this.invalidResponse('vectors of different lengths in one answer');
    const want = this.discoveredDim || this.spec.dimensions;
    if (want && dim !== want) {
      throw new RagError(
        'model_unavailable',
        this.redact(
          `${this.label} returned ${dim}-d vectors but ${want}-d were expected${this.discoveredDim ? ' (did the model behind the endpoint change?)' : ' (dimensions option)'}`,
        ),
        { details: { state: 'error', endpoint: this.spec.endpoint, dim, expected_dim: want } },
      );
    }
    this.discoveredDim = dim;
    return vectors;
  }
}

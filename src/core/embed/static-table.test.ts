import fs from 'node:fs';
import path from 'node:path';
import { env, pipeline, Tensor, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { afterAll, describe, expect, it } from 'vitest';
import { batchEncoder } from './batch-encoder.js';
import { buildFixtureModel } from './fixture-model.js';
import { ORT_SESSION_OPTIONS } from './loader.js';
import { meanPoolNormalize, tablePoolNormalize } from './pooling.js';
import { staticTokenTable, TABLE_MAX_BYTES, tokenizerSize } from './static-table.js';
import { transformersRunner } from './transformers-models.js';
import { resolveModelSpec } from './model-spec.js';
import type { EmbedResult, LoadResult } from './protocol.js';
import { EmbedWorkerClient } from './worker-client.js';
import { resolveEmbedWorkerPath } from './worker-path.js';
import { tempDir, tokenizerModelDirs, tokenizerTexts } from '../test-support.js';

env.allowRemoteModels = false;
env.allowLocalModels = true;

const load = (dir: string) =>
  pipeline('feature-extraction', dir, { local_files_only: true, session_options: ORT_SESSION_OPTIONS as never, dtype: 'fp32' });

/** The worker's ONNX path for a batch: run the model, pool its per-token output. */
async function pooledByRun(pipe: FeatureExtractionPipeline, rows: ReturnType<ReturnType<typeof batchEncoder>>): Promise<Float32Array> {
  const inputs: Record<string, Tensor> = {};
  for (const [k, { data, dims }] of Object.entries(rows)) inputs[k] = new Tensor('int64', data, dims);
  const out = (await pipe.model(inputs)) as { last_hidden_state: Tensor };
  return meanPoolNormalize(out.last_hidden_state.data as Float32Array, out.last_hidden_state.dims, rows.attention_mask!.data);
}

const bitsDiffer = (a: Float32Array, b: Float32Array) => a.length !== b.length || a.some((x, i) => !Object.is(x, b[i]));
const maxDiff = (a: Float32Array, b: Float32Array) =>
  a.length !== b.length ? Infinity : a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i]!)), 0);

const pipes: FeatureExtractionPipeline[] = [];
afterAll(async () => {
  for (const p of pipes) await p.dispose();
});

describe('staticTokenTable', () => {
  it('pools the same vectors, bit for bit, as running the model (fixture model; potion when present)', async () => {
    const texts = tokenizerTexts();
    for (const dir of await tokenizerModelDirs()) {
      const pipe = await load(dir);
      pipes.push(pipe);
      const encode = batchEncoder(pipe.tokenizer);
      const table = await staticTokenTable(transformersRunner(pipe.model), pipe.tokenizer, encode);
      expect(table, dir).toBeDefined();
      expect(table!.size).toBe(tokenizerSize(pipe.tokenizer));
      // Batches of 32 in order (padded to their longest), and each text alone.
      const batches: string[][] = [];
      for (let i = 0; i < texts.length; i += 32) batches.push(texts.slice(i, i + 32));
      for (const t of texts.slice(0, 40)) batches.push([t]);
      for (const batch of batches) {
        const rows = encode(batch);
        const got = tablePoolNormalize(table!.rows, table!.dim, rows.input_ids!.data, rows.attention_mask!.data, rows.input_ids!.dims)!;
        const want = await pooledByRun(pipe, rows);
        if (bitsDiffer(got, want)) expect(Array.from(got), `${dir}: ${JSON.stringify(batch).slice(0, 120)}`).toEqual(Array.from(want));
        // Summed with SIMD in float32 (simd-pool.ts): the same vectors but for rounding (~2e-6 at most seen here).
        const simd = tablePoolNormalize(
          table!.rows,
          table!.dim,
          rows.input_ids!.data,
          rows.attention_mask!.data,
          rows.input_ids!.dims,
          table!.simd,
        );
        expect(maxDiff(simd!, want), dir).toBeLessThan(1e-5);
      }
      expect(table!.simd, dir).toBeDefined();
    }
  });

  it('is not built for a model whose token vectors depend on their context', async () => {
    const contextual = await buildFixtureModel(path.join(tempDir('ragdesk-static-table-'), 'contextual'), { contextual: true });
    const pipe = await load(contextual.dir);
    pipes.push(pipe);
    const table = await staticTokenTable(transformersRunner(pipe.model), pipe.tokenizer, batchEncoder(pipe.tokenizer));
    expect(table).toBeUndefined();
  });

  it('does not try a model whose declared table would exceed TABLE_MAX_BYTES (a large transformer)', async () => {
    const big = await buildFixtureModel(path.join(tempDir('ragdesk-static-table-'), 'declared-large'));
    const config = path.join(big.dir, 'config.json');
    const json = JSON.parse(fs.readFileSync(config, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(config, JSON.stringify({ ...json, hidden_size: Math.ceil(TABLE_MAX_BYTES / 4 / big.vocabSize) + 1 }));
    const pipe = await load(big.dir);
    pipes.push(pipe);
    expect(await staticTokenTable(transformersRunner(pipe.model), pipe.tokenizer, batchEncoder(pipe.tokenizer))).toBeUndefined();
  });

  it('leaves a batch with an id outside the table to the model', async () => {
    const table = Float32Array.of(1, 0, 0, 1);
    const mask = BigInt64Array.of(1n, 1n);
    expect(tablePoolNormalize(table, 2, BigInt64Array.of(0n, 1n), mask, [1, 2])).toEqual(Float32Array.of(Math.SQRT1_2, Math.SQRT1_2));
    expect(tablePoolNormalize(table, 2, BigInt64Array.of(0n, 2n), mask, [1, 2])).toBeUndefined();
    expect(tablePoolNormalize(table, 2, BigInt64Array.of(0n, -1n), mask, [1, 2])).toBeUndefined();
    expect(tablePoolNormalize(table, 2, BigInt64Array.of(0n, 1n << 32n), mask, [1, 2])).toBeUndefined();
  });

  it('the embedding worker pools from the table and gives the vectors it gives without one (RAGDESK_EMBED_TABLE=0, RAGDESK_EMBED_SIMD=0)', async () => {
    const [fixture] = await tokenizerModelDirs();
    const contextual = await buildFixtureModel(path.join(tempDir('ragdesk-static-table-'), 'contextual'), { contextual: true });
    const texts = tokenizerTexts();
    const inWorker = async (dir: string, off: boolean, scalar = false) => {
      const before = { table: process.env.RAGDESK_EMBED_TABLE, simd: process.env.RAGDESK_EMBED_SIMD };
      // A worker gets the environment as it is when it starts; it reads the variables when it loads a model.
      if (off) process.env.RAGDESK_EMBED_TABLE = '0';
      else delete process.env.RAGDESK_EMBED_TABLE;
      if (scalar) process.env.RAGDESK_EMBED_SIMD = '0';
      else delete process.env.RAGDESK_EMBED_SIMD;
      const client = new EmbedWorkerClient({
        workerPath: resolveEmbedWorkerPath(),
        init: { cacheDir: tempDir('ragdesk-static-table-cache-') },
        onProgress: () => {},
        onExit: () => {},
      });
      try {
        const spec = resolveModelSpec(dir, 'embedding');
        const loaded = await client.request<LoadResult>({ type: 'load', key: 'm', spec, allowDownload: false });
        const out = await client.request<EmbedResult>({ type: 'embed', key: 'm', texts });
        return { loaded, vectors: new Float32Array(out.buffer) };
      } finally {
        if (before.table === undefined) delete process.env.RAGDESK_EMBED_TABLE;
        else process.env.RAGDESK_EMBED_TABLE = before.table;
        if (before.simd === undefined) delete process.env.RAGDESK_EMBED_SIMD;
        else process.env.RAGDESK_EMBED_SIMD = before.simd;
        await client.dispose();
      }
    };
    const on = await inWorker(fixture!, false);
    const scalar = await inWorker(fixture!, false, true);
    const off = await inWorker(fixture!, true);
    expect(on.loaded).toMatchObject({ dim: 64, table: true, simd: true });
    expect(scalar.loaded).toMatchObject({ dim: 64, table: true });
    expect(scalar.loaded.simd).toBeUndefined();
    expect(off.loaded.table).toBeUndefined();
    expect(on.vectors.length).toBe(texts.length * 64);
    expect(bitsDiffer(scalar.vectors, off.vectors)).toBe(false);
    expect(maxDiff(on.vectors, off.vectors)).toBeLessThan(1e-5);
    expect((await inWorker(contextual.dir, false)).loaded.table).toBeUndefined();
  });
});

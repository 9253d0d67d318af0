import fs from 'node:fs';
import path from 'node:path';
import { env, LogLevel, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBareModel, type BareModel } from './bare-model.js';
import { buildFixtureModel } from './fixture-model.js';
import { ORT_SESSION_OPTIONS } from './loader.js';
import { resolveModelSpec } from './model-spec.js';
import { encodeOnnxModel } from './onnx-writer.js';
import type { OutputTensor } from './pooling.js';
import type { EmbedResult, LoadResult, RerankResult } from './protocol.js';
import { transformersRunner } from './transformers-models.js';
import { EmbedWorkerClient } from './worker-client.js';
import { resolveEmbedWorkerPath } from './worker-path.js';
import { fixtureModels, tempDirsPerTest, tokenizerModelDirs, tokenizerTexts } from '../test-support.js';

env.allowRemoteModels = false;
env.allowLocalModels = true;
// transformers.js' notes on potion's config ("Unknown model class") are noise here.
env.logLevel = LogLevel.ERROR;

const tempDir = tempDirsPerTest('ragdesk-bare-model-');
const open: Array<{ dispose(): Promise<unknown> }> = [];
afterAll(async () => {
  for (const m of open) await m.dispose();
});

async function bare(dir: string): Promise<BareModel> {
  const m = await loadBareModel(dir, 'fp32');
  if (typeof m === 'string') throw new Error(`${dir} did not load bare: ${m}`);
  open.push(m);
  return m;
}

async function viaTransformers(dir: string): Promise<FeatureExtractionPipeline> {
  const pipe = await pipeline('feature-extraction', dir, {
    local_files_only: true,
    session_options: ORT_SESSION_OPTIONS as never,
    dtype: 'fp32',
  });
  open.push(pipe);
  return pipe;
}

const contextualModel = async () => (await buildFixtureModel(path.join(tempDir(), 'contextual'), { contextual: true })).dir;

/** A copy of the fixture model with `edit` applied to its folder. */
async function editedFixture(edit: (dir: string) => void): Promise<string> {
  const dir = (await buildFixtureModel(path.join(tempDir(), 'edited'))).dir;
  edit(dir);
  return dir;
}

const editJson = (file: string, change: (json: Record<string, unknown>) => Record<string, unknown>) =>
  fs.writeFileSync(file, JSON.stringify(change(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>)));

const sameBits = (a: OutputTensor, b: OutputTensor) =>
  a.dims.join() === b.dims.join() &&
  (a.data as Float32Array).length === (b.data as Float32Array).length &&
  (a.data as Float32Array).every((x, i) => Object.is(x, (b.data as Float32Array)[i]));

describe('loadBareModel (an embedding model without transformers.js)', () => {
  it('runs the model as transformers.js does: the same inputs, outputs bit for bit (fixture, potion when present, a contextual model)', async () => {
    const texts = tokenizerTexts();
    for (const dir of [...(await tokenizerModelDirs()), await contextualModel()]) {
      const own = await bare(dir);
      const pipe = await viaTransformers(dir);
      const theirs = transformersRunner(pipe.model);
      expect([...own.runner.inputNames], dir).toEqual([...theirs.inputNames]);
      expect(own.runner.hiddenSize, dir).toBe(theirs.hiddenSize);
      for (let i = 0; i < texts.length; i += 16) {
        const rows = own.encode(texts.slice(i, i + 16));
        const a = (await own.runner.run(rows)).last_hidden_state!;
        const b = (await theirs.run(rows)).last_hidden_state!;
        expect(sameBits(a, b), `${dir}: batch ${i}`).toBe(true);
      }
      // Without token type ids the session gets zeros, as transformers.js' encoder_forward gives it.
      const rows = own.encode(['the harbor fees']);
      const { token_type_ids: _types, ...untyped } = rows;
      expect(sameBits((await own.runner.run(untyped)).last_hidden_state!, (await theirs.run(rows)).last_hidden_state!)).toBe(true);
    }
  });

  it('says why it leaves a model to transformers.js', async () => {
    const cases: Array<[string, (dir: string) => void, RegExp]> = [
      [
        'a device',
        (d) => editJson(path.join(d, 'config.json'), (j) => ({ ...j, 'transformers.js_config': { dtype: 'fp32', device: 'cpu' } })),
        /more than the dtype/,
      ],
      ['external data', (d) => fs.writeFileSync(path.join(d, 'onnx', 'model.onnx_data'), ''), /external data/],
      [
        'another tokenizer class',
        (d) => editJson(path.join(d, 'tokenizer_config.json'), (j) => ({ ...j, tokenizer_class: 'WhisperTokenizer' })),
        /tokenizer class WhisperTokenizer/,
      ],
      [
        'an unreadable model file',
        (d) => fs.writeFileSync(path.join(d, 'onnx', 'model.onnx'), 'not onnx'),
        /not loaded without transformers.js/,
      ],
      ['no config object', (d) => fs.writeFileSync(path.join(d, 'config.json'), '[]'), /not a JSON object/],
      [
        'another input',
        (d) => {
          const table = { name: 'table', dataType: 'float' as const, dims: [4, 2], floats: new Float32Array(8) };
          const input = (name: string) => ({ name, dataType: 'int64' as const, shape: ['batch_size', 'sequence_length'] });
          const graph = {
            name: 'positions',
            initializers: [table],
            inputs: [input('input_ids'), input('attention_mask'), input('position_ids')],
            outputs: [{ name: 'last_hidden_state', dataType: 'float' as const, shape: ['batch_size', 'sequence_length', 2] }],
            nodes: [
              { op: 'Gather', inputs: ['table', 'input_ids'], outputs: ['last_hidden_state'], attributes: [{ name: 'axis', int: 0 }] },
            ],
          };
          fs.writeFileSync(path.join(d, 'onnx', 'model.onnx'), encodeOnnxModel(graph));
        },
        /model inputs input_ids, attention_mask, position_ids/,
      ],
    ];
    for (const [what, edit, why] of cases) {
      const got = await loadBareModel(await editedFixture(edit), 'fp32');
      expect(got, what).toBeTypeOf('string');
      expect(got, what).toMatch(why);
    }
  });
});

describe('the embedding worker', () => {
  /** `fn` with a fresh worker started under RAGDESK_EMBED_BARE / _TABLE as given (a worker reads them when it loads). */
  async function withWorker<T>(vars: { bare?: '0'; table?: '0' }, fn: (client: EmbedWorkerClient) => Promise<T>): Promise<T> {
    const before = { bare: process.env.RAGDESK_EMBED_BARE, table: process.env.RAGDESK_EMBED_TABLE };
    const set = (key: string, value: string | undefined) => (value === undefined ? delete process.env[key] : (process.env[key] = value));
    set('RAGDESK_EMBED_BARE', vars.bare);
    set('RAGDESK_EMBED_TABLE', vars.table);
    const client = new EmbedWorkerClient({
      workerPath: resolveEmbedWorkerPath(),
      init: { cacheDir: tempDir() },
      onProgress: () => {},
      onExit: () => {},
    });
    try {
      return await fn(client);
    } finally {
      set('RAGDESK_EMBED_BARE', before.bare);
      set('RAGDESK_EMBED_TABLE', before.table);
      await client.dispose();
    }
  }
  /** Load `dir` in a fresh worker, embed the test texts, list its modules. */
  const inWorker = (dir: string, vars: { bare?: '0'; table?: '0' } = {}) =>
    withWorker(vars, async (client) => {
      const spec = resolveModelSpec(dir, 'embedding');
      const loaded = await client.request<LoadResult>({ type: 'load', key: 'm', spec, allowDownload: false });
      const out = await client.request<EmbedResult>({ type: 'embed', key: 'm', texts: tokenizerTexts() });
      const modules = await client.request<string[]>({ type: 'modules' });
      return { loaded, vectors: new Float32Array(out.buffer), modules };
    });
  const fromTransformers = (modules: string[]) =>
    modules.filter((m) => /[\\/]node_modules[\\/](sharp|@huggingface[\\/]transformers)[\\/]/.test(m));
  const sameVectors = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

  it('loads a model on disk without importing transformers.js, and embeds exactly as through it', async () => {
    const [fixture] = await tokenizerModelDirs();
    for (const [dir, table] of [
      [fixture!, true],
      [await contextualModel(), false],
    ] as const) {
      const own = await inWorker(dir);
      const theirs = await inWorker(dir, { bare: '0' });
      expect(own.loaded, dir).toMatchObject({ bare: true, dim: 64, ids: true, ...(table ? { table: true } : {}) });
      expect(theirs.loaded.bare, dir).toBeUndefined();
      expect(fromTransformers(own.modules), dir).toEqual([]);
      expect(
        own.modules.some((m) => m.includes('onnxruntime-node')),
        dir,
      ).toBe(true);
      // The probe sees transformers.js' modules where it is loaded.
      expect(fromTransformers(theirs.modules).length, dir).toBeGreaterThan(0);
      expect(sameVectors(own.vectors, theirs.vectors), dir).toBe(true);
    }
    // A static model run batch by batch (no token table) gives its vectors too.
    const unpooled = await inWorker(fixture!, { table: '0' });
    const unpooledTheirs = await inWorker(fixture!, { bare: '0', table: '0' });
    expect(unpooled.loaded).toMatchObject({ bare: true });
    expect(unpooled.loaded.table).toBeUndefined();
    expect(sameVectors(unpooled.vectors, unpooledTheirs.vectors)).toBe(true);
  });

  it('loads a cross-encoder without transformers.js, and scores exactly as through it', async () => {
    const { reranker } = await fixtureModels();
    const passages = tokenizerTexts();
    const scored = (vars: { bare?: '0' }) =>
      withWorker(vars, async (client) => {
        const spec = resolveModelSpec(reranker, 'rerank');
        const loaded = await client.request<LoadResult>({ type: 'load', key: 'r', spec, allowDownload: false });
        const query = 'customs clearance at the harbor';
        const { scores } = await client.request<RerankResult>({ type: 'rerank', key: 'r', query, passages, batchSize: 7 });
        return { loaded, scores, modules: await client.request<string[]>({ type: 'modules' }) };
      });
    const own = await scored({});
    const theirs = await scored({ bare: '0' });
    expect(own.loaded.bare).toBe(true);
    expect(theirs.loaded.bare).toBeUndefined();
    expect(fromTransformers(own.modules)).toEqual([]);
    expect(fromTransformers(theirs.modules).length).toBeGreaterThan(0);
    expect(own.scores.length).toBe(passages.length);
    expect(new Set(own.scores.map((x) => x.toFixed(3))).size, 'the passages score apart').toBeGreaterThan(5);
    expect(own.scores).toEqual(theirs.scores);
  });

  it('loads a model it leaves to transformers.js through transformers.js', async () => {
    const dir = await editedFixture((d) =>
      editJson(path.join(d, 'config.json'), (j) => ({ ...j, 'transformers.js_config': { dtype: 'fp32', device: 'cpu' } })),
    );
    const got = await inWorker(dir);
    expect(got.loaded.bare).toBeUndefined();
    expect(got.loaded).toMatchObject({ dim: 64, table: true });
    expect(fromTransformers(got.modules).length).toBeGreaterThan(0);
  });
});

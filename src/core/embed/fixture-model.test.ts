import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AutoModelForSequenceClassification, AutoTokenizer, env, pipeline, type Tensor } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureModel, buildFixtureReranker, type FixtureModelInfo } from './fixture-model.js';

// The fixture folders straight through transformers.js (in-process), remote loading off.
let root: string;
let embed: FixtureModelInfo;
let rerank: FixtureModelInfo;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'ragdesk-fixture-'));
  embed = await buildFixtureModel(path.join(root, 'fixture-embed'), { dim: 32 });
  rerank = await buildFixtureReranker(path.join(root, 'fixture-rerank'));
  env.allowRemoteModels = false;
  env.localModelPath = root;
});

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((s, v, i) => s + v * (b[i] ?? 0), 0);

describe('fixture models', () => {
  it('writes a transformers.js model folder', () => {
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) {
      expect(existsSync(path.join(embed.dir, f)), f).toBe(true);
      expect(existsSync(path.join(rerank.dir, f)), f).toBe(true);
    }
    expect(embed).toMatchObject({ dim: 32, dir: path.join(root, 'fixture-embed') });
    expect(embed.vocabSize).toBeGreaterThan(1000);
  });

  it('tokenizes English, Russian and Chinese into known pieces', async () => {
    const tok = await AutoTokenizer.from_pretrained('fixture-embed');
    const pieces = (text: string) => tok.encode(text, { add_special_tokens: false }).map((id: number) => tok.decode([id]));
    expect(pieces('Heart disease')).toEqual(['heart', 'disease']);
    expect(pieces('Таможенные пошлины')).toEqual(['таможенные', 'пошлины']);
    expect(pieces('中国人')).toEqual(['中', '国', '人']);
    expect(pieces('xyzzy')).not.toContain('[UNK]'); // unknown words fall apart into letter pieces
    expect(tok.encode('heart')).toHaveLength(3); // [CLS] heart [SEP]
  });

  it('embeds: texts sharing words are closer than unrelated ones', async () => {
    const fe = await pipeline('feature-extraction', 'fixture-embed', { dtype: 'fp32' });
    const out = (await fe(['heart disease treatment', 'treatment of heart disease in hospital', 'tax law and customs duties'], {
      pooling: 'mean',
      normalize: true,
    })) as Tensor;
    expect(out.dims).toEqual([3, 32]);
    const data = out.data as Float32Array;
    const [a, b, c] = [data.subarray(0, 32), data.subarray(32, 64), data.subarray(64, 96)];
    expect(dot(a, b)).toBeGreaterThan(dot(a, c) + 0.3);
  });

  it('cross-encoder: logits [batch, 1], highest for the passage that shares the query words', async () => {
    const tokenizer = await AutoTokenizer.from_pretrained('fixture-rerank');
    const model = await AutoModelForSequenceClassification.from_pretrained('fixture-rerank', { dtype: 'fp32' });
    const passages = ['tax law and customs', 'heart disease treatment', 'the cat sat on the road'];
    const inputs = tokenizer(
      passages.map(() => 'heart disease'),
      { text_pair: passages, padding: true, truncation: true },
    );
    const { logits } = (await model(inputs)) as { logits: Tensor };
    expect(logits.dims).toEqual([3, 1]);
    const scores = Array.from(logits.data as Float32Array);
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
  });
});

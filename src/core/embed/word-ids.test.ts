import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { buildFixtureModel } from './fixture-model.js';
import { fixtureModels, heapHeldAfterReading, tempDir, tokenizerModelDirs, tokenizerTexts } from '../test-support.js';
import type { Int64Rows } from './int64-rows.js';
import { sameRows, tokenizerRows, wordIdsEncoder } from './word-ids.js';
import { batchEncoder } from './batch-encoder.js';

const describeRows = (rows: Int64Rows) =>
  Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, { dims: v.dims, data: Array.from(v.data, Number) }]));

/** Tokenizers to compare on: the fixture's (BERT template: [CLS] … [SEP], token types), one of 16 tokens, potion. */
async function tokenizers(): Promise<Array<{ name: string; load: () => Promise<unknown> }>> {
  const short = await buildFixtureModel(path.join(tempDir('ragdesk-word-ids-'), 'short'), { maxLength: 16 });
  const [fixture, ...others] = await tokenizerModelDirs();
  const dirs = [fixture!, short.dir, ...others];
  return dirs.map((dir) => ({ name: dir, load: () => AutoTokenizer.from_pretrained(dir, { local_files_only: true }) }));
}

describe('wordIdsEncoder', () => {
  it("gives the tokenizer's own rows: padding, truncation, specials and token types (fixture tokenizers, potion when present)", async () => {
    const all = tokenizerTexts();
    expect(all.length).toBeGreaterThan(100);
    for (const { name, load } of await tokenizers()) {
      const plain = await load();
      const encode = wordIdsEncoder(await load());
      expect(encode, name).toBeDefined();
      // Batches of 32 in order, each text alone, and shuffled batches that mix languages and branches.
      const batches: string[][] = [];
      for (let i = 0; i < all.length; i += 32) batches.push(all.slice(i, i + 32));
      for (const t of all) batches.push([t]);
      for (let i = 0; i < 40; i++) batches.push(Array.from({ length: 7 }, (_, k) => all[(i * 31 + k * 17) % all.length]!));
      for (const batch of batches) {
        const got = encode!(batch);
        const want = tokenizerRows(plain, batch);
        if (!sameRows(got, want)) expect(describeRows(got), `${name}: ${JSON.stringify(batch).slice(0, 200)}`).toEqual(describeRows(want));
      }
    }
  });

  it('gives the same rows once its memo has started over, and keeps no text alive through it', async () => {
    const { model } = await fixtureModels();
    const load = () => AutoTokenizer.from_pretrained(model, { local_files_only: true });
    const plain = await load();
    const encode = wordIdsEncoder(await load(), 50)!;
    const all = tokenizerTexts();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < all.length; i += 16)
        expect(sameRows(encode(all.slice(i, i + 16)), tokenizerRows(plain, all.slice(i, i + 16)))).toBe(true);
    }
    // 20 sections of 1 MB, each with a word no other has: the memo keeps words, not the sections they came from.
    expect(heapHeldAfterReading((s) => encode([s]), 20)).toBeLessThan(4 * 1024 * 1024);
  });

  it('is not used for other tokenizers, or when the tokenizer disagrees with it', async () => {
    expect(wordIdsEncoder({})).toBeUndefined();
    expect(wordIdsEncoder(undefined)).toBeUndefined();
    const { model } = await fixtureModels();
    const odd = (await AutoTokenizer.from_pretrained(model, { local_files_only: true })) as unknown as {
      _encode_plus: (text: string, o: object) => { input_ids: number[]; attention_mask: number[] };
    };
    // A tokenizer whose whole-text ids are not its words' ids one after the other (one more token per space).
    const own = odd._encode_plus.bind(odd);
    odd._encode_plus = (text, o) => {
      const r = own(text, o);
      const extra = (text.match(/ /g) ?? []).map(() => 5);
      return { input_ids: [...r.input_ids, ...extra], attention_mask: [...r.attention_mask, ...extra.map(() => 1)] };
    };
    expect(wordIdsEncoder(odd)).toBeUndefined();
    // One that cannot pad (no pad token): its checks fail, it keeps its own path instead of throwing at load.
    const unpadded = (await AutoTokenizer.from_pretrained(model, { local_files_only: true })) as unknown as { pad_token_id?: number };
    unpadded.pad_token_id = undefined;
    expect(wordIdsEncoder(unpadded)).toBeUndefined();
  });
});

describe('batchEncoder', () => {
  it('uses the per-word encoder for BERT-style tokenizers and gives the same rows either way', async () => {
    const { model } = await fixtureModels();
    const load = () => AutoTokenizer.from_pretrained(model, { local_files_only: true });
    const plain = await load();
    const batch = tokenizerTexts().slice(0, 32);
    expect(sameRows(batchEncoder(await load())(batch), tokenizerRows(plain, batch))).toBe(true);
    // Without the per-word encoder (the tokenizer made to look like another kind), the tokenizer's own rows.
    const other = (await load()) as unknown as { _tokenizer: { normalizer: unknown } };
    other._tokenizer.normalizer = (s: string) => s.toLowerCase();
    expect(wordIdsEncoder(other)).toBeUndefined();
    const viaTokenizer = batchEncoder(other);
    expect(sameRows(viaTokenizer(batch), tokenizerRows(other, batch))).toBe(true);
  });
});

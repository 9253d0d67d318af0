import fs from 'node:fs';
import path from 'node:path';
import * as transformers from '@huggingface/transformers';
import { AutoTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { BARE_TOKENIZER_CLASSES, bareTokenizer, type BareTokenizer } from './bare-tokenizer.js';
import { batchEncoder } from './batch-encoder.js';
import { buildFixtureModel } from './fixture-model.js';
import { int64Rows } from './int64-rows.js';
import { readTokenizerFiles } from './tokenizer-files.js';
import { writeUnigramTokenizer } from './unigram-fixture.js';
import { sameRows, tokenizerRows, type GivenIds } from './word-ids.js';
import { tempDirsPerTest, tokenizerModelDirs, tokenizerTexts } from '../test-support.js';

const tempDir = tempDirsPerTest('ragdesk-bare-tokenizer-');

/** The tokenizer folders compared: the fixture, potion when present, a Unigram one, and the fixture cut at 12 tokens. */
async function folders(): Promise<string[]> {
  const unigram = path.join(tempDir(), 'unigram');
  writeUnigramTokenizer(unigram);
  const short = await buildFixtureModel(path.join(tempDir(), 'short'), { maxLength: 12 });
  return [...(await tokenizerModelDirs()), unigram, short.dir];
}

async function both(dir: string) {
  const files = await readTokenizerFiles(dir);
  const bare = bareTokenizer(files.tokenizer, files.config);
  if (!bare) throw new Error(`no bare tokenizer for ${dir}`);
  const full = await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
  return { bare, full };
}

/** Batches of the test texts: in sevens (padded to their longest), and each alone. */
function batches(): string[][] {
  const texts = tokenizerTexts();
  const out: string[][] = [];
  for (let i = 0; i < texts.length; i += 7) out.push(texts.slice(i, i + 7));
  for (const t of texts) out.push([t]);
  return out;
}

describe('bareTokenizer (the embedding worker without transformers.js)', () => {
  it("is made only for transformers.js' tokenizer classes that add nothing to PreTrainedTokenizer but token types", async () => {
    const exported = transformers as unknown as Record<string, unknown>;
    const [fixture] = await tokenizerModelDirs();
    const json = JSON.parse(fs.readFileSync(path.join(fixture!, 'tokenizer.json'), 'utf8')) as object;
    for (const [name, tokenTypes] of BARE_TOKENIZER_CLASSES) {
      const cls = exported[name] as (new (json: object, config: object) => { return_token_type_ids: boolean }) | undefined;
      expect(cls, name).toBeTypeOf('function');
      if (name !== 'PreTrainedTokenizer') {
        expect(Object.getPrototypeOf(cls), name).toBe(transformers.PreTrainedTokenizer);
        expect(Object.getOwnPropertyNames(cls!.prototype), name).toEqual(['constructor']);
        expect(
          Object.getOwnPropertyNames(cls).filter((k) => !['length', 'name', 'prototype'].includes(k)),
          name,
        ).toEqual([]);
      }
      expect(new cls!(json, {}).return_token_type_ids, name).toBe(tokenTypes);
    }
  });

  it("gives AutoTokenizer's padded, truncated rows and _encode_plus (BERT fixture, potion when present, Unigram, a short maximum)", async () => {
    for (const dir of await folders()) {
      const { bare, full } = await both(dir);
      expect(bare.model_max_length, dir).toBe(full.model_max_length);
      expect(bare.pad_token_id, dir).toBe(full.pad_token_id);
      expect(bare.padding_side, dir).toBe(full.padding_side);
      for (const batch of batches()) {
        const got = tokenizerRows(bare, batch);
        const want = tokenizerRows(full, batch);
        if (!sameRows(got, want)) expect(got, `${dir}: ${JSON.stringify(batch).slice(0, 120)}`).toEqual(want);
        for (const add_special_tokens of [true, false]) {
          const theirs = (full as unknown as Pick<BareTokenizer, '_encode_plus'>)._encode_plus(batch[0]!, { add_special_tokens });
          expect(bare._encode_plus(batch[0]!, { add_special_tokens }), dir).toEqual(theirs);
        }
      }
    }
  });

  it("pairs a query with passages as AutoTokenizer does (a cross-encoder's rows), truncated pairs included", async () => {
    const texts = tokenizerTexts();
    for (const dir of await folders()) {
      const { bare, full } = await both(dir);
      const call = full as unknown as (q: string[], o: object) => Record<string, number[][]>;
      for (let i = 0; i < texts.length; i += 5) {
        const passages = texts.slice(i, i + 5);
        const queries = passages.map(() => texts[(i * 7) % texts.length]!);
        const options = { text_pair: passages, padding: true as const, truncation: true as const, return_tensor: false as const };
        const got = int64Rows(bare(queries, options));
        const want = int64Rows(call(queries, options));
        if (!sameRows(got, want)) expect(got, `${dir}: ${JSON.stringify(passages).slice(0, 120)}`).toEqual(want);
      }
    }
  });

  it("makes the worker's encoder give AutoTokenizer's rows, from texts and from given ids", async () => {
    for (const dir of await folders()) {
      const { bare, full } = await both(dir);
      const own = batchEncoder(bare);
      const theirs = batchEncoder(full);
      expect(own.takesIds, dir).toBe(theirs.takesIds);
      for (const batch of batches()) expect(sameRows(own(batch), theirs(batch)), dir).toBe(true);
      if (!own.takesIds) continue;
      const texts = tokenizerTexts();
      const ids = texts.map((t) => bare._tokenizer.encode(t, { add_special_tokens: false }).ids);
      const given: GivenIds = {
        data: Int32Array.from(ids.flat()),
        offsets: Int32Array.from(ids.map((_, k) => ids.slice(0, k).reduce((n, x) => n + x.length, 0))),
        lengths: Int32Array.from(ids, (x, k) => (k % 3 === 0 ? -1 : x.length)),
        prefix: 'passage: ',
      };
      const shown = texts.map((t, k) => (k % 3 === 0 ? t : ''));
      expect(sameRows(own(shown, given), theirs(shown, given)), dir).toBe(true);
    }
  });

  it('is not made for another tokenizer class or a token it cannot read, and fails to pad without a pad token', async () => {
    const [fixture] = await tokenizerModelDirs();
    const { tokenizer, config } = await readTokenizerFiles(fixture!);
    expect(bareTokenizer(tokenizer, { ...config, tokenizer_class: 'WhisperTokenizer' })).toBeUndefined();
    expect(bareTokenizer(tokenizer, { ...config, tokenizer_class: 'SomethingNew' })).toBeUndefined();
    expect(bareTokenizer(tokenizer, { ...config, tokenizer_class: 'BertTokenizerFast' })).toBeDefined();
    expect(bareTokenizer(tokenizer, { ...config, tokenizer_class: undefined })).toBeDefined();
    expect(bareTokenizer(tokenizer, { ...config, pad_token: { content: '[PAD]' } })).toBeUndefined();
    expect(bareTokenizer(tokenizer, { ...config, pad_token: { __type: 'AddedToken', content: '[PAD]' } })?.pad_token_id).toBe(
      tokenizer.token_to_id('[PAD]'),
    );
    const unpadded = bareTokenizer(tokenizer, { ...config, pad_token: null });
    expect(unpadded?.pad_token_id).toBeUndefined();
    expect(() => unpadded!(['a', 'a longer text'], { padding: true, truncation: true, return_tensor: false })).toThrow(/pad token/);
  });
});

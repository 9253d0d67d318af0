import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { buildFixtureModel } from './fixture-model.js';
import { fixtureModels, heapHeldAfterReading, tempDir, tokenizerModelDirs, tokenizerTexts } from '../test-support.js';
import { readTokenizer } from './token-counter.js';
import { wordIdsCounter } from './token-index.js';
import { sameRows, tokenizerRows, wordIdSource, type GivenIds } from './word-ids.js';
import { batchEncoder } from './batch-encoder.js';
import type { Int64Rows } from './int64-rows.js';

const rowsOf = (r: Int64Rows) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, { dims: v.dims, data: Array.from(v.data, Number) }]));

/** A deterministic pseudo-random sequence (the ranges differ from run to run only if the seed does). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Texts the index is checked on: every tokenizer test text, and them joined into one document. */
function documents(): string[] {
  const texts = tokenizerTexts();
  return [...texts, texts.join('\n\n'), texts.join(' ')];
}

/** The given ids of a batch, packed as the model manager packs them. */
function given(ids: Array<Int32Array | undefined>, prefix?: string): GivenIds {
  const lengths = new Int32Array(ids.length).fill(-1);
  const offsets = new Int32Array(ids.length);
  const data = new Int32Array(ids.reduce((n, x) => n + (x?.length ?? 0), 0));
  let at = 0;
  ids.forEach((x, k) => {
    offsets[k] = at;
    if (!x) return;
    lengths[k] = x.length;
    data.set(x, at);
    at += x.length;
  });
  return { data, offsets, lengths, ...(prefix ? { prefix } : {}) };
}

async function tokenizers(): Promise<string[]> {
  const short = await buildFixtureModel(path.join(tempDir('ragdesk-token-index-'), 'short'), { maxLength: 16 });
  const [fixture, ...others] = await tokenizerModelDirs();
  return [fixture!, short.dir, ...others];
}

describe('wordIdsCounter', () => {
  it('counts any range of a text as counting its slice does, and its ids give the rows of tokenizing the slice', async () => {
    for (const dir of await tokenizers()) {
      const load = () => AutoTokenizer.from_pretrained(dir, { local_files_only: true });
      const plain = await load();
      // The main thread's tokenizer (tokenizers.js alone) gives the ids, the worker's (transformers.js) takes them.
      const source = wordIdSource(await readTokenizer(dir));
      expect(source, dir).toBeDefined();
      const counter = wordIdsCounter('t', source!);
      const encode = batchEncoder(await load());
      expect(encode.takesIds).toBe(true);
      const next = random(7);
      let withIds = 0;
      let without = 0;
      for (const text of documents()) {
        const index = counter.index!(text);
        const ranges: Array<[number, number]> = [[0, text.length]];
        for (let k = 0; k < 60; k++) {
          const a = Math.floor(next() * (text.length + 1));
          const b = Math.floor(next() * (text.length + 1));
          ranges.push([Math.min(a, b), Math.max(a, b)]);
        }
        const slices = ranges.map(([a, b]) => text.slice(a, b));
        const ids = ranges.map(([a, b]) => index.ids(a, b));
        ranges.forEach(([a, b], k) => {
          const full = plain.encode(slices[k]!, { add_special_tokens: false }).length;
          expect(index.count(a, b), `${dir} count [${a}, ${b}) of ${JSON.stringify(text.slice(0, 40))}`).toBe(counter.count(slices[k]!));
          // Where the slice takes the per-word path, the count is the tokenizer's own.
          if (ids[k]) expect(index.count(a, b)).toBe(full);
        });
        for (const x of ids) {
          if (x) withIds++;
          else without++;
        }
        for (const prefix of [undefined, 'passage: ']) {
          const texts = prefix ? slices.map((s) => prefix + s) : slices;
          const got = encode(
            slices.map((s, k) => (ids[k] ? '' : prefix ? prefix + s : s)),
            given(ids, prefix),
          );
          const want = tokenizerRows(plain, texts);
          if (!sameRows(got, want)) expect(rowsOf(got), `${dir}: ${JSON.stringify(texts).slice(0, 200)}`).toEqual(rowsOf(want));
        }
      }
      // Both kinds occur: ranges with ids, and ranges that must be tokenized whole (controls, BOM, added tokens).
      expect(withIds, dir).toBeGreaterThan(100);
      expect(without, dir).toBeGreaterThan(10);
    }
    // ~33 s in CI, 67 s on a loaded machine: every tokenizer here, 61 ranges of each document.
  }, 180_000);

  it("gives a whole text's ids as the index does, and none for a text the tokenizer must see whole", async () => {
    const dir = (await fixtureModels()).model;
    const tokenizer = await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
    const counter = wordIdsCounter('t', wordIdSource(await readTokenizer(dir))!);
    const ids = (t: string) => Array.from(counter.ids!(t) ?? [-1]);
    expect(ids('Harbor fees, таможенной 海关')).toEqual(tokenizer.encode('Harbor fees, таможенной 海关', { add_special_tokens: false }));
    expect(ids('')).toEqual([]);
    expect(ids('a\fb')).toEqual([-1]);
    expect(ids('a [CLS] b')).toEqual([-1]);
    expect(ids('a\u200bb')).toEqual([-1]);
    // The same words counted before, in between and after stay the same (the memo's pool, its turnover).
    const words = Array.from({ length: 120_000 }, (_, i) => `w${i.toString(36)}x`);
    const text = words.join(' ');
    const index = counter.index!(text);
    expect(index.count(0, text.length)).toBe(counter.count(text));
    const tail = words.slice(-50).join(' ');
    expect(Array.from(index.ids(text.length - tail.length, text.length)!)).toEqual(tokenizer.encode(tail, { add_special_tokens: false }));
  });

  it('keeps no text it counted or indexed alive through its memo', async () => {
    const tokenizer = await AutoTokenizer.from_pretrained((await fixtureModels()).model, { local_files_only: true });
    const counter = wordIdsCounter('t', wordIdSource(tokenizer)!);
    // 20 sections of 1 MB, each with a word no other has: the memo keeps 20 words, not the 20 sections.
    expect(heapHeldAfterReading((s) => counter.count(s), 20)).toBeLessThan(4 * 1024 * 1024);
    expect(heapHeldAfterReading((s) => counter.index!(s).count(0, s.length), 20)).toBeLessThan(4 * 1024 * 1024);
  });
});

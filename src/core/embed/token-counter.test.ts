import fs from 'node:fs';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { resolveModelSpec } from './model-spec.js';
import { fixtureModels, heapHeldAfterReading, sampleWords, tempDirsPerTest, tokenizerModelDirs, tokenizerTexts } from '../test-support.js';
import { bertWordCount, loadModelTokenCounter, readTokenizer, wordMemoizedCount } from './token-counter.js';
import { writeUnigramTokenizer } from './unigram-fixture.js';

const tempDir = tempDirsPerTest('ragdesk-token-counter-');

describe('readTokenizer (the main thread loads tokenizers.js alone, not transformers.js)', () => {
  it("encodes every text as transformers.js' AutoTokenizer does: BERT-style (fixture, potion when present) and Unigram", async () => {
    const unigram = path.join(tempDir(), 'unigram');
    writeUnigramTokenizer(unigram);
    const texts = [...tokenizerTexts(), ...sampleWords()];
    for (const dir of [...(await tokenizerModelDirs()), unigram]) {
      const own = await readTokenizer(dir);
      const full = await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
      let unknown = 0;
      for (const text of texts) {
        for (const add_special_tokens of [false, true]) {
          const want = full.encode(text, { add_special_tokens });
          const got = own.encode(text, { add_special_tokens }).ids;
          if (got.join() !== want.join()) expect(got, `${dir}: ${JSON.stringify(text).slice(0, 120)}`).toEqual(want);
        }
        if (dir === unigram && own.encode(text).ids.includes(3)) unknown++;
      }
      // The Unigram vocabulary is small: most texts hold an unknown piece, some do not.
      if (dir === unigram) expect(unknown).toBeGreaterThan(100);
    }
  });

  it('counts with a Unigram tokenizer through the whole-text path, and estimates when the files cannot be read', async () => {
    const dir = path.join(tempDir(), 'unigram');
    writeUnigramTokenizer(dir);
    const spec = resolveModelSpec(dir, 'embedding');
    const counter = (await loadModelTokenCounter(spec, dir))!;
    const full = await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
    for (const text of ['the harbor fees.', 'таможенной  海关清关', 'harbor\nfees']) {
      expect(counter.count(text), text).toBe(full.encode(text, { add_special_tokens: false }).length);
    }
    expect(counter.index).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'tokenizer.json'), '{ not json');
    const stderr = process.stderr.write;
    const said: string[] = [];
    process.stderr.write = ((chunk: string) => (said.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      expect(await loadModelTokenCounter(spec, dir)).toBeUndefined();
    } finally {
      process.stderr.write = stderr;
    }
    expect(said.join('')).toMatch(/could not be loaded, estimating tokens/);
  });
});

describe('bertWordCount', () => {
  it("counts every word exactly as the tokenizer's whole pipeline does (fixture BERT tokenizer, and potion when present)", async () => {
    const list = sampleWords();
    expect(list.length).toBeGreaterThan(1000);
    for (const dir of await tokenizerModelDirs()) {
      const tokenizer = await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
      const full = (w: string) => tokenizer.encode(w, { add_special_tokens: false }).length;
      const fast = bertWordCount(tokenizer, full);
      expect(fast, dir).toBeDefined();
      for (const w of list) expect(fast!(w), `${dir}: ${w}`).toBe(full(w));
    }
  });

  it('is not used when the tokenizer disagrees with it, or is not BERT-style', async () => {
    const tokenizer = await AutoTokenizer.from_pretrained((await fixtureModels()).model, { local_files_only: true });
    expect(bertWordCount(tokenizer, (w) => tokenizer.encode(w, { add_special_tokens: false }).length + 1)).toBeUndefined();
    expect(bertWordCount({}, () => 1)).toBeUndefined();
  });
});

describe('wordMemoizedCount', () => {
  it('splits where a split on whitespace does, for every code unit, and counts a word the same wherever it is', () => {
    const count = wordMemoizedCount((w) => w.length);
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      const text = `ab${ch}cd`;
      const words = text.split(/[\s\u3000]+/).filter(Boolean);
      expect(count(text), `U+${c.toString(16)}`).toBe(words.reduce((n, w) => n + w.length, 0));
      // Whitespace at either end adds nothing.
      if (words.length === 2) expect(count(`${ch}${text}${ch}`), `U+${c.toString(16)} at the ends`).toBe(4);
    }
    // A hit is the word itself, not another of the same length and hash slot.
    const seen: string[] = [];
    const recording = wordMemoizedCount((w) => (seen.push(w), w.length));
    expect(recording('alpha beta alpha\tbeta\u3000gamma alphabeta')).toBe(5 + 4 + 5 + 4 + 5 + 9);
    expect(seen).toEqual(['alpha', 'beta', 'gamma', 'alphabeta']);
  });

  it('counts by words and keeps no text it counted alive through its cache', () => {
    const count = wordMemoizedCount((w) => w.length);
    expect(count('таможенное  оформление\nтоваров')).toBe(10 + 10 + 7);
    // 20 sections of 1 MB, each with a word no other has: the cache keeps 20 words, not the 20 sections.
    expect(heapHeldAfterReading((s) => count(s), 20)).toBeLessThan(4 * 1024 * 1024);
  });
});

import { AutoTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { sampleWords, tokenizerModelDirs } from '../test-support.js';
import { bertWordIds } from './bert-word-ids.js';

const CJK = /[\u4e00-\u9fff]/;

describe('bertWordIds', () => {
  it("gives every word it takes the ids of the tokenizer's whole pipeline, and takes the plain ones (fixture, potion)", async () => {
    const words = sampleWords();
    expect(words.length).toBeGreaterThan(1000);
    for (const dir of await tokenizerModelDirs()) {
      const tokenizer = await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
      const ids = bertWordIds(tokenizer);
      expect(ids, dir).toBeDefined();
      let taken = 0;
      let cjk = 0;
      for (const w of words) {
        const out = [7]; // appends after what is there
        if (!ids!(w, out)) {
          expect(out, w).toEqual([7]);
          continue;
        }
        taken++;
        if (CJK.test(w)) cjk++;
        expect(out.slice(1), `${dir}: ${w}`).toEqual(tokenizer.encode(w, { add_special_tokens: false }));
      }
      // Everything but added tokens and characters the normalizer drops: Chinese runs included (no spaces: one
      // "word" a sentence).
      expect(taken / words.length, dir).toBeGreaterThan(0.95);
      expect(cjk, dir).toBeGreaterThan(20);
    }
  });

  it('leaves CJK ideographs to the tokenizer when its normalizer does not pad them (handle_chinese_chars off)', async () => {
    const [dir] = await tokenizerModelDirs();
    const tokenizer = (await AutoTokenizer.from_pretrained(dir!, { local_files_only: true })) as unknown as {
      _tokenizer: { tokenizer: { normalizer: { handle_chinese_chars?: boolean } } };
    };
    const padded = bertWordIds(tokenizer)!;
    expect(padded('海关x', [])).toBe(true);
    tokenizer._tokenizer.tokenizer.normalizer.handle_chinese_chars = false;
    const plain = bertWordIds(tokenizer);
    const out: number[] = [];
    expect(plain?.('海关x', out) ?? false).toBe(false);
    expect(out).toEqual([]);
    expect(plain?.('harbor', out)).toBe(true);
  });

  it('is not used for other tokenizers, or when the tokenizer disagrees with it on a check word', async () => {
    expect(bertWordIds({})).toBeUndefined();
    const [dir] = await tokenizerModelDirs();
    const tokenizer = (await AutoTokenizer.from_pretrained(dir!, { local_files_only: true })) as unknown as {
      _tokenizer: { encode: (text: string, o?: object) => { ids: number[] } };
    };
    // A tokenizer that gives one token more than the words' pieces: the check words catch it.
    const own = tokenizer._tokenizer.encode.bind(tokenizer._tokenizer);
    tokenizer._tokenizer.encode = (text, o) => ({ ...own(text, o), ids: [...own(text, o).ids, 1] });
    expect(bertWordIds(tokenizer)).toBeUndefined();
  });
});

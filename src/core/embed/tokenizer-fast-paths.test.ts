import { AutoTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { tokenizerModelDirs, tokenizerTexts } from '../test-support.js';
import { addTokenizerFastPaths } from './tokenizer-fast-paths.js';

describe('addTokenizerFastPaths', () => {
  it('leaves token rows exactly as they were (fixture tokenizer, and potion when present)', async () => {
    const dirs = await tokenizerModelDirs();
    const all = tokenizerTexts();
    expect(all.length).toBeGreaterThan(100);
    for (const dir of dirs) {
      const load = () => AutoTokenizer.from_pretrained(dir, { local_files_only: true });
      const [plain, fast] = [await load(), await load()];
      expect(addTokenizerFastPaths(fast), dir).toEqual({ clean: true, chinese: true, splitters: 2 });
      for (const text of all) expect(fast.encode(text), `${dir}: ${JSON.stringify(text.slice(0, 80))}`).toEqual(plain.encode(text));
      for (let i = 0; i < all.length; i += 32) {
        const batch = all.slice(i, i + 32);
        const options = { padding: true, truncation: true, return_tensor: false } as const;
        expect(fast(batch, options)).toEqual(plain(batch, options));
      }
    }
  });

  it('leaves anything else alone', () => {
    expect(addTokenizerFastPaths({})).toEqual({ clean: false, chinese: false, splitters: 0 });
    expect(addTokenizerFastPaths(undefined)).toEqual({ clean: false, chinese: false, splitters: 0 });
  });
});

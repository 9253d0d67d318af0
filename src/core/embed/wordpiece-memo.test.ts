import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { buildFixtureModel } from './fixture-model.js';
import { memoizeWordPiece } from './wordpiece-memo.js';

describe('memoizeWordPiece', () => {
  it('gives the same ids as the plain WordPiece tokenizer, splitting each distinct word once', async () => {
    const model = await buildFixtureModel(mkdtempSync(path.join(os.tmpdir(), 'ragdesk-wordpiece-')));
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    const load = () => AutoTokenizer.from_pretrained(model.dir, { local_files_only: true });
    const [plain, memoised] = [await load(), await load()];
    const memo = memoizeWordPiece(memoised);
    expect(memo).toBeDefined();
    const texts = [
      'Customs clearance of a parcel: customs, CUSTOMS and customs again.',
      'таможенное оформление таможенное',
      '海关清关 shipping incoterms2020 unknownwordzzz',
      `${'x'.repeat(150)} a word longer than the WordPiece limit, twice: ${'x'.repeat(150)}`,
      '',
    ];
    for (const text of texts) {
      expect(memoised.encode(text)).toEqual(plain.encode(text));
      expect(memoised(texts, { padding: true, truncation: true, return_tensor: false })).toEqual(
        plain(texts, { padding: true, truncation: true, return_tensor: false }),
      );
    }
    // every distinct word is in the memo once; "customs" was split once for its four uses
    expect(memo!.has('customs')).toBe(true);
    expect(memo!.size).toBeLessThan(texts.join(' ').split(/\s+/).length);
  });

  it('leaves anything that is not a WordPiece tokenizer alone', () => {
    expect(memoizeWordPiece({})).toBeUndefined();
    expect(memoizeWordPiece(undefined)).toBeUndefined();
    expect(memoizeWordPiece({ _tokenizer: { model: { encode: () => [] } } })).toBeUndefined();
  });
});

import fs, { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { heapHeldAfterReading } from '../test-support.js';
import { buildFixtureModel } from './fixture-model.js';
import { memoizeWordPiece, wordPieceSplitter } from './wordpiece-memo.js';

const POTION = fileURLToPath(new URL('../../../../shared/models/potion-base-4M-int8', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../../../rag_data/', import.meta.url));

/** The sample KB's text files (English, Russian, Chinese), one string each. */
function sampleTexts(): string[] {
  return fs
    .readdirSync(SAMPLE)
    .filter((f) => /\.(md|txt|html)$/.test(f))
    .map((f) => fs.readFileSync(path.join(SAMPLE, f), 'utf8'));
}

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
    expect(memo!.get('customs')).toBeDefined();
    expect(memo!.size).toBeLessThan(texts.join(' ').split(/\s+/).length);
  });

  it('keeps no text it split alive through its memo', async () => {
    const model = await buildFixtureModel(mkdtempSync(path.join(os.tmpdir(), 'ragdesk-wordpiece-')));
    const tokenizer = await AutoTokenizer.from_pretrained(model.dir, { local_files_only: true });
    const memo = memoizeWordPiece(tokenizer)!;
    // 10 sections of 1 MB, each with a word no other has: the memo keeps 10 words and their pieces, not the sections.
    expect(heapHeldAfterReading((s) => tokenizer.encode(s.slice(-600_000)), 10)).toBeLessThan(3 * 1024 * 1024);
    expect(memo.size).toBeGreaterThan(10);
  });

  it('leaves anything that is not a WordPiece tokenizer alone', () => {
    expect(memoizeWordPiece({})).toBeUndefined();
    expect(memoizeWordPiece(undefined)).toBeUndefined();
    expect(memoizeWordPiece({ _tokenizer: { model: { encode: () => [] } } })).toBeUndefined();
  });

  it('splits every pre-token of the sample KB as WordPiece does (fixture tokenizer, and potion when present)', async () => {
    const dirs = [(await buildFixtureModel(mkdtempSync(path.join(os.tmpdir(), 'ragdesk-wordpiece-')))).dir];
    if (fs.existsSync(path.join(POTION, 'tokenizer.json'))) dirs.push(POTION);
    for (const dir of dirs) {
      const tokenizer = (await AutoTokenizer.from_pretrained(dir, { local_files_only: true })) as unknown as {
        _tokenizer: {
          normalizer: (t: string) => string;
          pre_tokenizer: (t: string) => string[];
          model: Parameters<typeof wordPieceSplitter>[0];
        };
      };
      const { normalizer, pre_tokenizer, model } = tokenizer._tokenizer;
      const split = wordPieceSplitter(model);
      expect(split, dir).toBeDefined();
      const words = new Set(['x'.repeat(100), 'x'.repeat(101), 'qqqqzzzxv', 'ragdesk190', '𐐀abc']);
      for (const text of sampleTexts()) for (const w of pre_tokenizer(normalizer(text))) words.add(w);
      expect(words.size).toBeGreaterThan(500);
      for (const w of words) {
        const expected = model.encode([w]);
        const got = split!(w);
        if (got === undefined) expect(w, dir).toMatch(/[\ud800-\udfff]/);
        else expect(got, `${dir}: ${w}`).toEqual(expected);
      }
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { fixtureModels, heapHeldAfterReading } from '../test-support.js';
import { bertWordCount, wordMemoizedCount } from './token-counter.js';

const POTION = path.resolve(fileURLToPath(new URL('../../../../shared/models/potion-base-4M-int8', import.meta.url)));

/**
 * The distinct whitespace-separated words of the sample KB (English, Russian, Chinese, Markdown punctuation), with
 * their letter-and-digit runs, plus edge cases (long, unknown, digits, case, added tokens, every ASCII symbol).
 */
function words(): string[] {
  const dir = fileURLToPath(new URL('../../../rag_data/', import.meta.url));
  const found = new Set(['a', 'Z', '0', 'ragdesk190', 'x'.repeat(100), 'x'.repeat(101), 'qqqqzzzxv', 'ABCdef123GHI', 'EN71']);
  for (const w of ['[CLS]', 'a[SEP]b', '[cls]', '[PAD]x', '[MASK]', 'x'.repeat(101) + '!', `${'x'.repeat(101)}-${'y'.repeat(3)}`])
    found.add(w);
  for (let c = 0x21; c < 0x7f; c++) found.add(`${String.fromCharCode(c)}ab${String.fromCharCode(c)}1`);
  for (const name of fs.readdirSync(dir).filter((f) => /\.(md|txt|html)$/.test(f))) {
    for (const w of fs.readFileSync(path.join(dir, name), 'utf8').split(/\s+/)) {
      if (!w) continue;
      found.add(w);
      for (const part of w.split(/[^A-Za-z0-9]+/)) if (part) found.add(part);
    }
  }
  return [...found];
}

describe('bertWordCount', () => {
  const models = async () => [(await fixtureModels()).model, ...(fs.existsSync(path.join(POTION, 'tokenizer.json')) ? [POTION] : [])];

  it("counts every word exactly as the tokenizer's whole pipeline does (fixture BERT tokenizer, and potion when present)", async () => {
    const list = words();
    expect(list.length).toBeGreaterThan(1000);
    for (const dir of await models()) {
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
  it('counts by words and keeps no text it counted alive through its cache', () => {
    const count = wordMemoizedCount((w) => w.length);
    expect(count('таможенное  оформление\nтоваров')).toBe(10 + 10 + 7);
    // 20 sections of 1 MB, each with a word no other has: the cache keeps 20 words, not the 20 sections.
    expect(heapHeldAfterReading((s) => count(s), 20)).toBeLessThan(4 * 1024 * 1024);
  });
});

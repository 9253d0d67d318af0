import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { fixtureModels } from '../test-support.js';
import { addTokenizerFastPaths } from './tokenizer-fast-paths.js';

const POTION = fileURLToPath(new URL('../../../../shared/models/potion-base-4M-int8', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../../../rag_data/', import.meta.url));

/** Paragraphs of the sample KB (en/ru/zh, Markdown, HTML) and texts that need what the shortcuts skip. */
function texts(): string[] {
  const out = [
    '',
    ' ',
    'plain text, nothing special',
    'tab\tand\nnew line\r\nand\u00a0no-break\u3000ideographic space',
    'control \x0b vertical tab, \x0c form feed, \x85 next line, \x7f delete, \0 nul',
    'format \u200b zero width, \u200e mark, \ufeff bom; private \ue000; replacement \ufffd',
    'lone \ud800 surrogate, pair 😀 and 𠀀 (Han outside the BMP)',
    '海关清关 and 中文 mixed with English, 丽 compatibility ideograph',
    '[CLS] added [SEP] tokens [PAD][UNK][MASK] and [brackets] without them',
    '[cls] lower-case [sep]',
  ];
  for (const f of fs.readdirSync(SAMPLE).filter((n) => /\.(md|txt|html)$/.test(n))) {
    out.push(...fs.readFileSync(path.join(SAMPLE, f), 'utf8').split(/\n(?=\S)/));
  }
  return out;
}

describe('addTokenizerFastPaths', () => {
  it('leaves token rows exactly as they were (fixture tokenizer, and potion when present)', async () => {
    const dirs = [(await fixtureModels()).model, ...(fs.existsSync(path.join(POTION, 'tokenizer.json')) ? [POTION] : [])];
    const all = texts();
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

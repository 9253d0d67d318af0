/** Helpers for the chunker tests: deterministic token counters, hand-built documents and invariant checks. */
import { expect } from 'vitest';
import type { ParsedBlock, ParsedDocument } from '../parse/types.js';
import type { ChunkDraft, TokenCounter } from './types.js';

const TOKEN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu;

/** One token per Latin/Cyrillic word, per CJK character and per punctuation mark. */
export const wordCounter: TokenCounter = {
  id: 'test-words',
  count: (text) => text.match(TOKEN_RE)?.length ?? 0,
};

/** Like wordCounter plus two special tokens per call, as BERT-style tokenizers count [CLS] and [SEP]. */
export const specialCounter: TokenCounter = {
  id: 'test-words+2',
  count: (text) => 2 + (text.match(TOKEN_RE)?.length ?? 0),
};

/** One token per UTF-16 unit (so a long word is an oversized segment). */
export const charCounter: TokenCounter = { id: 'test-chars', count: (text) => text.length };

export type BlockSpec = Omit<ParsedBlock, 'char_start' | 'char_end'>;

/** A parsed document whose text is the blocks joined by "\n\n", with char ranges filled in. */
export function buildDoc(specs: BlockSpec[], parser = 'test'): ParsedDocument {
  const blocks: ParsedBlock[] = [];
  let pos = 0;
  for (const spec of specs) {
    blocks.push({ ...spec, char_start: pos, char_end: pos + spec.text.length });
    pos += spec.text.length + 2;
  }
  return { parser, text: specs.map((s) => s.text).join('\n\n'), blocks, metadata: {}, warnings: [] };
}

/** A one-block plain text document. */
export function textDoc(text: string): ParsedDocument {
  return buildDoc([{ text, kind: 'text' }]);
}

/** Checks what every chunk must satisfy; `maxTokens` is the size limit (omit for `whole`). */
export function expectValidChunks(doc: ParsedDocument, chunks: ChunkDraft[], counter: TokenCounter, maxTokens?: number): void {
  expect(chunks.length).toBeGreaterThan(0);
  chunks.forEach((c, i) => {
    expect(c.chunk_index).toBe(i);
    expect(c.text.length).toBeGreaterThan(0);
    expect(c.text).toBe(c.text.trim());
    expect(c.characters).toBe(c.text.length);
    expect(c.tokens).toBe(counter.count(c.text));
    // A chunk's text is its range of the document, or a table's head and the range (later rows of a big table).
    const own = doc.text.slice(c.location.char_start, c.location.char_end);
    if (c.text !== own) expect(c.text).toMatch(new RegExp(`^\\|.*\\|\n(?:\\|[-:| ]+\\|\n)?${escapeRegExp(own)}$`));
    if (maxTokens !== undefined) expect(c.tokens).toBeLessThanOrEqual(maxTokens);
  });
  for (let i = 1; i < chunks.length; i++) {
    const prev = chunks[i - 1] as ChunkDraft;
    const cur = chunks[i] as ChunkDraft;
    expect(cur.location.char_start as number).toBeGreaterThan(prev.location.char_start as number);
    expect(cur.location.char_end as number).toBeGreaterThan(prev.location.char_end as number);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every non-space character of the document lies in some chunk. */
export function expectCoverage(doc: ParsedDocument, chunks: ChunkDraft[]): void {
  const covered = new Uint8Array(doc.text.length);
  for (const c of chunks) covered.fill(1, c.location.char_start, c.location.char_end);
  for (let i = 0; i < doc.text.length; i++) {
    if (!/\s/.test(doc.text[i] as string)) expect(covered[i], `char ${i} not covered`).toBe(1);
  }
}

export const EN_SENTENCES = [
  'The harbour opened at dawn and the first ships came in with the tide.',
  'Dock workers unloaded crates of tea, cotton and iron tools.',
  'Customs officers checked every manifest before noon.',
  'By evening the market near the quay was full of traders.',
  'Prices for spices rose sharply after the storm delayed two vessels.',
  'The harbour master recorded each arrival in a leather ledger.',
  'Children watched the cranes swing heavy loads over the water.',
  'At night the lighthouse guided late boats past the rocks.',
];

export const RU_SENTENCES = [
  'Таможенная служба начала работу рано утром.',
  'Инспекторы проверили документы на все грузы!',
  'Почему очередь на границе стала такой длинной?',
  'Водители грузовиков ждали несколько часов.',
  'Новые правила таможенного оформления вступили в силу в понедельник.',
  'Т.е. теперь декларацию можно подать заранее.',
  'Начальник поста ответил на вопросы журналистов.',
  'К вечеру движение на переходе нормализовалось.',
];

export const ZH_SENTENCES = [
  '今天早上港口开始工作。',
  '海关人员检查了所有货物的文件！',
  '为什么边境的队伍这么长？',
  '卡车司机等了好几个小时。',
  '新的通关规定从星期一开始生效。',
  '现在可以提前提交申报单。',
  '站长回答了记者的问题。',
  '到了晚上交通恢复正常。',
];

export function repeatSentences(sentences: string[], times: number, sep = ' '): string {
  const out: string[] = [];
  for (let i = 0; i < times; i++) out.push(...sentences);
  return out.join(sep);
}

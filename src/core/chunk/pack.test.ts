import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { wordMemoizedCount } from '../embed/token-counter.js';
import { parseBytesInThread } from '../parse/registry.js';
import type { ParsedDocument } from '../parse/types.js';
import { estimateTokenCounter } from './estimate.js';
import { chunkDocument } from './index.js';
import type { Unit } from './pack.js';
import { packUnits, rangesToUnits } from './pack.js';
import { sentenceRanges } from './segment.js';
import { TokenCost } from './span.js';
import { specialCounter, wordCounter } from './test-support.js';
import type { TokenCounter } from './types.js';

const text = 'A1 a2 a3. B1 b2 b3. C1 c2 c3. D1 d2 d3. E1 e2 e3.';
const slices = (spans: Array<{ start: number; end: number }>): string[] => spans.map((s) => text.slice(s.start, s.end));

function units(tc: TokenCost): Unit[] {
  return rangesToUnits(text, sentenceRanges(text), { size: 100, overlap: 0 }, tc);
}

describe('packUnits', () => {
  it('packs greedily and carries whole trailing units as overlap', () => {
    const tc = new TokenCost(wordCounter);
    expect(slices(packUnits(text, units(tc), { size: 8, overlap: 0 }, tc))).toEqual([
      'A1 a2 a3. B1 b2 b3.',
      'C1 c2 c3. D1 d2 d3.',
      'E1 e2 e3.',
    ]);
    expect(slices(packUnits(text, units(tc), { size: 8, overlap: 4 }, tc))).toEqual([
      'A1 a2 a3. B1 b2 b3.',
      'B1 b2 b3. C1 c2 c3.',
      'C1 c2 c3. D1 d2 d3.',
      'D1 d2 d3. E1 e2 e3.',
    ]);
  });

  it('starts a chunk at breakBefore and carries no overlap across it', () => {
    const tc = new TokenCost(wordCounter);
    const us = units(tc);
    us[3]!.breakBefore = true;
    expect(slices(packUnits(text, us, { size: 12, overlap: 4 }, tc))).toEqual(['A1 a2 a3. B1 b2 b3. C1 c2 c3.', 'D1 d2 d3. E1 e2 e3.']);
  });

  it('counts the tokenizer overhead once per chunk', () => {
    const tc = new TokenCost(specialCounter);
    expect(tc.overhead).toBe(2);
    const spans = packUnits(text, units(tc), { size: 10, overlap: 0 }, tc);
    expect(slices(spans)).toEqual(['A1 a2 a3. B1 b2 b3.', 'C1 c2 c3. D1 d2 d3.', 'E1 e2 e3.']);
    expect(spans.map((s) => s.tokens)).toEqual([10, 10, 6]);
  });

  it('drops units when the whole chunk counts more than its parts', () => {
    // Counts one extra token per sentence boundary inside the text.
    const sticky = { id: 'sticky', count: (t: string) => wordCounter.count(t) + (t.match(/\. \S/g)?.length ?? 0) };
    const tc = new TokenCost(sticky);
    const spans = packUnits(text, units(tc), { size: 8, overlap: 0 }, tc);
    for (const s of spans) expect(s.tokens).toBeLessThanOrEqual(8);
    expect(slices(spans).join(' ')).toBe(text);
  });
});

describe('packUnits with an additive counter', () => {
  const additive = (counter: TokenCounter): TokenCounter => ({ ...counter, id: `${counter.id}+additive`, additive: true });
  /** The sample KB's text documents (en/ru/zh; Markdown, HTML, text), parsed as ingest parses them. */
  async function sampleDocs(): Promise<ParsedDocument[]> {
    const dir = fileURLToPath(new URL('../../../rag_data/', import.meta.url));
    const names = fs.readdirSync(dir).filter((n) => /\.(md|txt|html)$/.test(n));
    return Promise.all(names.map((name) => parseBytesInThread({ data: fs.readFileSync(path.join(dir, name)), filename: name })));
  }

  it('gives the same chunks as counting every chunk whole, with fewer counts (markdown, sentence; sizes and overlaps)', async () => {
    const docs = await sampleDocs();
    expect(docs.length).toBeGreaterThan(5);
    for (const base of [estimateTokenCounter, { id: 'words', count: wordMemoizedCount((w) => wordCounter.count(w)) }]) {
      let calls = 0;
      const spy = (c: TokenCounter): TokenCounter => ({ ...c, count: (t) => (calls++, c.count(t)) });
      const plain: TokenCounter = { id: base.id, count: base.count };
      for (const doc of docs) {
        for (const config of [
          { strategy: 'markdown', chunk_size: 256, chunk_overlap: 32 },
          { strategy: 'markdown', chunk_size: 24, chunk_overlap: 0 },
          { strategy: 'sentence', chunk_size: 48, chunk_overlap: 8 },
        ] as const) {
          calls = 0;
          const want = await chunkDocument(doc, config, { tokenizer: spy(plain) });
          const whole = calls;
          calls = 0;
          const got = await chunkDocument(doc, config, { tokenizer: spy(additive(plain)) });
          expect(got, `${base.id} ${doc.parser} ${JSON.stringify(config)}`).toEqual(want);
          expect(calls).toBeLessThan(whole);
        }
      }
    }
  });

  it('counts a chunk whole where its units are not joined by whitespace', () => {
    // Two units cut inside one word: the word counts once in the chunk, once in each unit.
    const tc = new TokenCost(additive({ id: 'words', count: wordMemoizedCount(() => 1) }));
    const abc = 'abcdef ghi';
    const spans = packUnits(
      abc,
      [
        { start: 0, end: 3, cost: 1 },
        { start: 3, end: 6, cost: 1 },
        { start: 7, end: 10, cost: 1 },
      ],
      { size: 10, overlap: 0 },
      tc,
    );
    expect(spans).toEqual([{ start: 0, end: 10, tokens: 2 }]);
  });
});

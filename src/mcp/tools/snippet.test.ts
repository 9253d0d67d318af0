import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { searchAllAccessibleKbs } from './search-all-accessible-kbs.js';
import { searchKb } from './search-kb.js';
import { bestSnippet, cutAt } from './snippet.js';

const filler = (n: number, word = 'lorem') => Array.from({ length: n }, (_, i) => `${word}${i % 7}`).join(' ');

describe('cutAt', () => {
  it('ends at a paragraph, line or word break in the last fifth, else at the limit', () => {
    expect(cutAt('aaaa bbbb cccc', 0, 12)).toBe(10);
    expect(cutAt('aaaa\n\nbbbbbbbb cc', 0, 16)).toBe(15);
    expect(cutAt('x'.repeat(50), 0, 20)).toBe(20);
    expect(cutAt('short', 0, 100)).toBe(5);
    // Never splits a surrogate pair.
    expect(cutAt(`${'x'.repeat(9)}😀yyyy`, 0, 10)).toBe(9);
  });
});

describe('bestSnippet', () => {
  const text = `${filler(60)}. Customs declaration must be filed before the customs broker releases the goods. ${filler(60)}`;
  const at = (w: string, from = 0): [number, number] => {
    const i = text.indexOf(w, from);
    return [i, i + w.length];
  };

  it('takes the part with the most distinct matched terms, from the start of its sentence', () => {
    const marks = [at('Customs'), at('declaration'), at('customs', at('declaration')[1]), at('broker')];
    const s = bestSnippet(text, marks, 120);
    expect(s.text.startsWith('…Customs declaration')).toBe(true);
    expect(s.text).toContain('broker');
    expect(s.text.endsWith('…')).toBe(true);
    expect(s.end - s.start).toBeLessThanOrEqual(120);
    expect(text.slice(s.start, s.end)).toBe(s.text.replace(/^…|…$/g, ''));
  });

  it('stays within size when snapping back to a sentence start would make the matches overflow it', () => {
    // Matches spanning 118 of the 120 characters leave no room for the sentence start 30 characters back.
    const t = `${filler(3)}. Opening words of a sentence xx customs ${'y'.repeat(100)} paperwork. ${filler(30)}`;
    const from = t.indexOf('customs');
    const to = t.indexOf('paperwork') + 'paperwork'.length;
    expect(to - from).toBeLessThanOrEqual(120);
    const s = bestSnippet(
      t,
      [
        [from, from + 7],
        [to - 9, to],
      ],
      120,
    );
    expect(s.end - s.start).toBeLessThanOrEqual(120);
    expect(s.text.length).toBeLessThanOrEqual(122);
    expect(t.slice(s.start, s.end)).toContain('customs');
    expect(t.slice(s.start, s.end)).toContain('paperwork');
  });

  it('without matches (a vector hit) gives the start; a short text stays whole', () => {
    const s = bestSnippet(text, [], 100);
    expect(s.start).toBe(0);
    expect(s.text.endsWith('…')).toBe(true);
    expect(s.text.length).toBeLessThanOrEqual(101);
    expect(bestSnippet('tiny text', [[0, 4]], 100)).toEqual({ text: 'tiny text', start: 0, end: 9 });
  });
});

describe('snippet mode of the search tools', () => {
  const long = `${filler(200)} The customs broker files the declaration. ${filler(200)}`;
  const docs = { alpha: [{ doc_id: 'manual', content: long }], beta: [{ doc_id: 'short', content: 'customs in brief' }] };

  it('search_kb returns the best part of each chunk and where it sits', async () => {
    const { client } = memoryClient(docs);
    const full = await runTool(searchKb, { kb_id: 'alpha', query: 'customs broker' }, client);
    const snip = await runTool(searchKb, { kb_id: 'alpha', query: 'customs broker', snippet: true, snippet_chars: 200 }, client);
    expect(full.hits[0]!.text).toBe(long);
    const hit = snip.hits[0]!;
    expect(hit.text).toContain('customs broker');
    expect(hit.text.length).toBeLessThanOrEqual(202);
    expect(hit.snippet_of).toMatchObject({ chunk_chars: long.length });
    expect(long.slice(hit.snippet_of!.start, hit.snippet_of!.end)).toBe(hit.text.replace(/^…|…$/g, ''));
  });

  it('search_all_accessible_kbs too; short hits stay whole; snippet_chars out of range is invalid_parameter', async () => {
    const { client } = memoryClient(docs);
    const out = await runTool(searchAllAccessibleKbs, { query: 'customs', snippet: true, snippet_chars: 100 }, client);
    const short = out.hits.find((h) => h.doc_id === 'short')!;
    expect(short.text).toBe('customs in brief');
    expect(short.snippet_of).toBeUndefined();
    expect(out.hits.find((h) => h.doc_id === 'manual')!.text.length).toBeLessThanOrEqual(102);
    await expect(runTool(searchKb, { kb_id: 'alpha', query: 'x', snippet: true, snippet_chars: 10 }, client)).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
  });
});

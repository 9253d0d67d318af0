import { describe, expect, it } from 'vitest';
import type { AddResult } from '../../shared/contract/index.js';
import type { RagError } from '../../shared/errors.js';
import { analyzeForIndex } from '../text/analyzer.js';
import type { PreparedDoc } from './ingest.js';
import { analyzeChunks, buildRows, contentFileTexts } from './ingest-rows.js';
import { preparedDoc } from './test-support.js';

const doc = preparedDoc;

const at = {
  version: 'v1',
  now: '2026-12-03T12:00:00.000Z',
  fields: {},
  vectors: new Map<PreparedDoc, Float32Array[]>(),
  contentFileMinChars: Infinity,
};

describe('analyzeChunks and buildRows', () => {
  it("analyses each chunk with its document's title, and the rows carry what was analysed", () => {
    const ru = doc('ru', 'Таможенное оформление', ['Декларация подаётся до ввоза товаров.', 'Пошлины платят в рублях.']);
    const zh = doc('zh', '退货政策', ['退货须在三十天内申请。']);
    const fts = analyzeChunks([ru, zh]);
    expect(fts.get(ru)).toEqual([
      analyzeForIndex('Таможенное оформление\nДекларация подаётся до ввоза товаров.'),
      analyzeForIndex('Таможенное оформление\nПошлины платят в рублях.'),
    ]);
    expect(fts.get(zh)).toEqual([analyzeForIndex('退货政策\n退货须在三十天内申请。')]);
    expect(fts.get(ru)![0]).toContain('деклар');

    const results: Array<AddResult | RagError> = [];
    const pending = [ru, zh].map((d, i) => ({ i, doc: d, decision: { kind: 'write' as const, existing: false } }));
    const built = buildRows('kb', pending, { ...at, fts }, results);
    expect(built.rows.map((r) => r.fts)).toEqual([...fts.get(ru)!, ...fts.get(zh)!]);
    expect(built.rows.map((r) => r.chunk_id)).toEqual(['ru#v1#0', 'ru#v1#1', 'zh#v1#0']);
    expect(built.docRows.map((r) => r.doc_id)).toEqual(['ru', 'zh']);
    expect(results).toEqual([]);
  });

  it('a text of the bound or more goes to a content file, its row left empty; a shorter one stays in its row', () => {
    const small = doc('small', 'S', ['short note']);
    const big = doc('big', 'B', ['x'.repeat(40), 'y'.repeat(40)]);
    const edge = doc('edge', 'E', ['z'.repeat(82)]);
    const docs = [small, big, edge];
    const results: Array<AddResult | RagError> = [];
    const pending = docs.map((d, i) => ({ i, doc: d, decision: { kind: 'write' as const, existing: false } }));
    const built = buildRows('kb', pending, { ...at, fts: analyzeChunks(docs), contentFileMinChars: 82 }, results);
    expect(contentFileTexts(docs, 82)).toEqual([
      { doc_id: 'big', text: big.parsed.text },
      { doc_id: 'edge', text: edge.parsed.text },
    ]);
    expect(built.docRows.map((r) => [r.doc_id, r.content, r.size])).toEqual([
      ['small', 'short note', 10],
      ['big', '', 82],
      ['edge', '', 82],
    ]);
    // The chunks carry their text either way.
    expect(built.rows.filter((r) => r.doc_id === 'big').map((r) => r.text)).toEqual(['x'.repeat(40), 'y'.repeat(40)]);
  });

  it('leaves out a document whose chunks were not analysed, with an error of its own', () => {
    const a = doc('a', 'A', ['alpha text']);
    const b = doc('b', 'B', ['beta text', 'more beta']);
    const fts = analyzeChunks([a]);
    // Analysed before a chunk was added: its count no longer matches.
    const stale = doc('c', 'C', ['gamma']);
    fts.set(stale, []);
    const results: Array<AddResult | RagError> = [];
    const pending = [a, b, stale].map((d, i) => ({ i, doc: d, decision: { kind: 'write' as const, existing: false } }));
    const built = buildRows('kb', pending, { ...at, fts }, results);
    expect(built.good.map((w) => w.doc.doc_id)).toEqual(['a']);
    expect(built.rows.map((r) => r.doc_id)).toEqual(['a']);
    expect((results[1] as RagError).code).toBe('internal');
    expect((results[2] as RagError).message).toContain('c: chunks not analysed');
  });
});

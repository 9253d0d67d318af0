import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support.js';
import { chunkColumn, hitColumns, packHit, plainChunkRow, plainRows, toRef, toStored, type ChunkRow } from './chunk-rows.js';

describe('plainRows', () => {
  it('reads a LanceDB result into the values its row proxies give, nulls and row ids included', async () => {
    const db = await lancedb.connect(path.join(tempDir(), 'lance'));
    const table = await db.createTable('t', [
      { id: 'a', n: 1, page: 3, text: 'Таможня 海关', score: 0.5 },
      { id: 'b', n: 2, page: null, text: '', score: -1.25 },
    ]);
    const query = () => table.query().select(['id', 'n', 'page', 'text', 'score']).withRowId();
    const proxies = (await query().toArray()) as Array<Record<string, unknown>>;
    const rows = plainRows(await query().toArrow());
    expect(rows).toEqual(proxies.map((p) => ({ id: p.id, n: p.n, page: p.page, text: p.text, score: p.score, _rowid: p._rowid })));
    expect(typeof rows[0]!._rowid).toBe('bigint');
    expect(rows[1]!.page).toBeNull();
    table.close();
    db.close();
  });
});

describe('chunkColumn', () => {
  const rows = Array.from({ length: 50 }, (_, i) =>
    plainChunkRow({ chunk_id: `d${i}#v#0`, doc_id: `d${i}`, chunk_index: 0, text: `text ${i}`, fts: `text ${i}`, meta: { m_lang: 'en' } }),
  );
  const at3 = (name: string, withVector = true, withHit = false) => chunkColumn(rows, name, withVector, withHit)[3];

  it('gives a column of every row: its own fields, fts_len, the vector and hit when asked, the metadata columns', () => {
    expect(chunkColumn(rows, 'chunk_id', true, false)).toEqual(rows.map((r) => r.chunk_id));
    expect([at3('text'), at3('fts_len'), at3('vector'), at3('m_lang'), at3('m_year')]).toEqual(['text 3', 2, null, 'en', null]);
    expect(at3('vector', false)).toBeUndefined();
    expect(at3('meta')).toBeUndefined();
    expect(at3('hit', true, true)).toBe(packHit(rows[3]!));
    expect(at3('hit')).toBeUndefined();
    expect(chunkColumn([], 'text', true, true)).toEqual([]);
  });
});

describe('the packed hit column', () => {
  const located = (over: Partial<ChunkRow>): ChunkRow => ({
    ...plainChunkRow({ chunk_id: 'doc#v#4', doc_id: 'doc', chunk_index: 4, text: 'Таможенные пошлины 海关 text', fts: 'x' }),
    title: 'He said "hi" \\ \u2028 </script> Таможня 海关',
    source: 'C:\\docs\\"quoted".pdf',
    tokens: 17,
    metadata: JSON.stringify({ year: 2021, tags: ['a', 'б', '关'], note: 'line\nbreak' }),
    ...over,
  });
  const cases: ChunkRow[] = [
    located({}),
    located({
      page: 12,
      heading_path: JSON.stringify(['Глава "1"', '第二章']),
      line_start: 3,
      line_end: 9,
      char_start: 100,
      char_end: 180,
    }),
    located({ page: 0, heading_path: JSON.stringify([]), line_start: 0, line_end: 0, metadata: '{}' }),
  ];
  // A row read from the separate columns: what toStored read before the packed column existed.
  const split = (r: ChunkRow) => Object.fromEntries(hitColumns(false).map((name) => [name, chunkColumn([r], name, false, false)[0]]));

  it('reads back as the separate columns read, whatever the strings hold', () => {
    for (const r of cases) {
      const packed = { chunk_id: r.chunk_id, text: r.text, hit: packHit(r) };
      expect(toStored(packed, 0.5)).toEqual(toStored(split(r), 0.5));
    }
    // what both read, written out: the separate columns' values, the JSON ones parsed
    expect(toStored(split(cases[1]!), 0.5)).toEqual({
      doc_id: 'doc',
      chunk_index: 4,
      text: 'Таможенные пошлины 海关 text',
      title: 'He said "hi" \\ \u2028 </script> Таможня 海关',
      source: 'C:\\docs\\"quoted".pdf',
      tokens: 17,
      location: { char_start: 100, char_end: 180, page: 12, heading_path: ['Глава "1"', '第二章'], line_start: 3, line_end: 9 },
      metadata: { year: 2021, tags: ['a', 'б', '关'], note: 'line\nbreak' },
      score: 0.5,
    });
    expect(toStored(split(cases[0]!), 0).location).toEqual({ char_start: 0, char_end: cases[0]!.text.length });
  });

  it('is what the table is written with when it has the column, and what a ref takes its document and index from', () => {
    const r = cases[1]!;
    expect(chunkColumn([r], 'hit', false, true)).toEqual([packHit(r)]);
    expect(chunkColumn([r], 'hit', false, false)).toEqual([undefined]);
    expect(toRef({ chunk_id: r.chunk_id, text: r.text, hit: packHit(r) }, 2)).toMatchObject({ doc_id: 'doc', chunk_index: 4, score: 2 });
    expect(hitColumns(true)).toEqual(['chunk_id', 'text', 'hit']);
    expect(hitColumns(false)).toContain('heading_path');
  });
});

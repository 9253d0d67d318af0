import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { sameHiddenClass, tempDir } from '../test-support.js';
import { plainChunkRow, plainRows, writeRow, type ChunkRow } from './chunk-rows.js';

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

describe('writeRow', () => {
  const rows = Array.from({ length: 50 }, (_, i) =>
    plainChunkRow({ chunk_id: `d${i}#v#0`, doc_id: `d${i}`, chunk_index: 0, text: `text ${i}`, fts: `text ${i}`, meta: { m_lang: 'en' } }),
  );

  it('gives the columns: every own column but meta and vector, fts_len, the vector when asked, the metadata columns', () => {
    const row = writeRow(rows[3]!, true, ['m_lang', 'm_year']);
    expect(row).toMatchObject({ chunk_id: 'd3#v#0', text: 'text 3', fts_len: 2, vector: null, m_lang: 'en', m_year: null });
    expect('meta' in row).toBe(false);
    expect('vector' in writeRow(rows[3]!, false, [])).toBe(false);
  });

  it('builds every row with one hidden class (a spread and an added key would give each its own)', () => {
    const built = rows.map((r) => writeRow(r, true, ['m_lang']));
    expect(built.every((r) => sameHiddenClass(r, built[0]!))).toBe(true);
    // what the helper tells apart: the construction writeRow replaced
    const spread = rows.map((r: ChunkRow) => {
      const { meta, vector, ...rest } = r;
      return { ...rest, fts_len: 1, vector, lang: meta.m_lang };
    });
    expect(spread.filter((r) => sameHiddenClass(r, spread[0]!)).length).toBeLessThan(spread.length);
  });
});

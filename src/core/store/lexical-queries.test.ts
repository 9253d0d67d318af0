import { connect } from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { plainChunkRow } from './chunk-rows.js';
import { ChunkTable } from './chunk-table.js';
import { tempDirsPerTest, textRow } from '../test-support.js';

/**
 * LanceDB's own ranking as a search reads it (lexical-queries.ts scoredPart), on a real LanceDB table: the rows tied
 * at the end of a read.
 */

const tableDir = tempDirsPerTest('ragdesk-lexical-queries-');
const WORDS = 'harbour crane berth container vessel cargo customs tariff duty pilot tug anchor quay freight'.split(' ');

/** A table of 12 documents (40 rows each, none holding the terms searched here) and its full-text index. */
async function indexedTable(): Promise<ChunkTable> {
  const dir = tableDir();
  const table = await ChunkTable.create(await connect(dir), 'chunks__t', 0, dir);
  for (let d = 0; d < 12; d++)
    await table.add(
      Array.from({ length: 40 }, (_, i) => textRow(`d${d}`, i, WORDS.slice((d + i) % 7, ((d + i) % 7) + 3 + (i % 5)).join(' '), 't')),
    );
  await table.ensureFtsIndex();
  return table;
}

describe('ties at the end of the rows a search reads', () => {
  it('every row tied with the last one read is fetched, so ties break by chunk id as in the counted ranking', async () => {
    const table = await indexedTable();
    const twins = Array.from({ length: 30 }, (_, i) =>
      plainChunkRow({ chunk_id: `twin#${i}`, doc_id: 'twin', chunk_index: i, text: 'lighthouse keeper', fts: 'lighthouse keeper' }),
    );
    await table.add(twins);
    await table.optimize();
    const snap = await table.snapshot();
    // A search showing 5 rows asks for 6: the 6th ties with the 5th, so the rest of the tie comes too.
    const scored = (await snap.lexicalPart(['lighthouse'], 50, undefined, false, 6)).scored!;
    expect(scored.length).toBe(30);
    const head = scored.sort((a, b) => b.score - a.score || a.chunk_id.localeCompare(b.chunk_id)).slice(0, 5);
    expect(head.map((c) => c.chunk_id)).toEqual(['twin#0', 'twin#1', 'twin#10', 'twin#11', 'twin#12']);
    table.closeSnapshots();
  }, 60_000);

  it('the rows tied past the first read come by id and score alone, and the hits among them are read whole', async () => {
    const table = await indexedTable();
    const twins = Array.from({ length: 30 }, (_, i) =>
      plainChunkRow({ chunk_id: `twin#${i}`, doc_id: 'twin', chunk_index: i, text: `lighthouse keeper ${i}`, fts: 'lighthouse keeper' }),
    );
    await table.add(twins);
    await table.optimize();
    const snap = await table.snapshot();
    const scored = (await snap.lexicalPart(['lighthouse'], 50, undefined, true, 6)).scored!;
    expect(scored.length).toBe(30);
    // Only the first read's six carry their columns (reading the columns of every tied row cost more than the
    // whole query at 1M chunks).
    expect(scored.filter((c) => c.row).length).toBe(6);
    const head = scored.sort((a, b) => b.score - a.score || a.chunk_id.localeCompare(b.chunk_id)).slice(0, 5);
    const hits = await snap.hydrate(head);
    expect(hits.map((h) => h.text)).toEqual([
      'lighthouse keeper 0',
      'lighthouse keeper 1',
      'lighthouse keeper 10',
      'lighthouse keeper 11',
      'lighthouse keeper 12',
    ]);
    table.closeSnapshots();
  }, 60_000);

  // Rows of ten tokens, `tf` of them 'lighthouse': scores grow with tf, and rows of one tf tie.
  const graded = (tfs: number[]) =>
    tfs.map((tf, i) => textRow('g', i, [...Array<string>(tf).fill('lighthouse'), ...Array<string>(10 - tf).fill('keeper')].join(' ')));

  it('a fused list leaves out the group tied at its end when half of it stays, instead of reading deeper', async () => {
    const table = await indexedTable();
    // Eight rows scored apart (tf 9..2), then twenty that tie (tf 1).
    await table.add(graded([9, 8, 7, 6, 5, 4, 3, 2, ...Array<number>(20).fill(1)]));
    await table.optimize();
    const snap = await table.snapshot();
    for (const lean of [false, true]) {
      const fused = (await snap.lexicalPart(['lighthouse'], 50, undefined, false, 12, { lean, fused: true })).scored!;
      expect(fused.length, `lean ${lean}`).toBe(8);
      expect((await snap.hydrate(fused)).map((c) => c.chunk_index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      // A list that is shown as it ranks reads every row of the tie (the same query without `fused`).
      expect((await snap.lexicalPart(['lighthouse'], 50, undefined, false, 12, { lean })).scored!.length, `lean ${lean}`).toBe(28);
    }
    table.closeSnapshots();
  }, 60_000);

  it('a fused list whose tie starts in its first half reads deeper, as a list shown as it ranks does', async () => {
    const table = await indexedTable();
    // Two rows scored apart, then twenty that tie: leaving the tie out would leave 2 of the 12 rows asked for.
    await table.add(graded([9, 8, ...Array<number>(20).fill(1)]));
    await table.optimize();
    const snap = await table.snapshot();
    const fused = (await snap.lexicalPart(['lighthouse'], 50, undefined, false, 12, { lean: true, fused: true })).scored!;
    expect(fused.length).toBe(22);
    table.closeSnapshots();
  }, 60_000);
});

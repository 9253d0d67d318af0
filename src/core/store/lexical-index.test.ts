import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, type Connection } from '@lancedb/lancedb';
import { afterEach, describe, expect, it } from 'vitest';
import { indexTokens } from './bm25.js';
import { plainChunkRow, type ChunkRow } from './chunk-rows.js';
import { ChunkTable } from './chunk-table.js';
import type { LexicalIndex } from './lexical-index.js';
import { prng } from '../util/prng.js';

/**
 * Document frequencies read off LanceDB's scores (while the index's statistics are the live rows') against a
 * count over the live rows in JS; and the fall back to counting once rows were removed, in this process or
 * (seen from the version history) before it. A real LanceDB table throughout.
 */

const WORDS = 'harbour crane berth container vessel cargo customs tariff duty pilot tug anchor quay freight'.split(' ');
const TERMS = ['harbour', 'cargo', 'anchor', 'freight', 'absent'];
const rand = prng(7);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const live = new Map<string, string>();
function doc(docId: string, chunks: number): ChunkRow[] {
  return Array.from({ length: chunks }, (_, i) => {
    // Skewed word choice: common and rare terms, rows of 3-60 tokens.
    const text = Array.from({ length: 3 + Math.floor(rand() * 58) }, () => WORDS[Math.floor(rand() ** 2 * WORDS.length)]).join(' ');
    live.set(`${docId}#${i}`, text);
    return plainChunkRow({
      chunk_id: `${docId}#${i}`,
      doc_id: docId,
      version: 'v1',
      chunk_index: i,
      text,
      fts: text,
      title: docId,
      source: 't',
    });
  });
}

async function expectCounts(table: ChunkTable, step: string): Promise<LexicalIndex['dfReads']> {
  const lexical = (table as unknown as { lexical: LexicalIndex }).lexical;
  const before = { ...lexical.dfReads };
  const part = await table.lexicalPart(TERMS, 10);
  expect(part.stats.docs, step).toBe(live.size);
  for (const t of TERMS) {
    const n = [...live.values()].filter((text) => indexTokens(text).includes(t)).length;
    expect(part.stats.df.get(t), `${step}: df of ${t}`).toBe(n);
  }
  return { derived: lexical.dfReads.derived - before.derived, counted: lexical.dfReads.counted - before.counted };
}

async function setUp(): Promise<{ db: Connection; table: ChunkTable }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-lexical-index-'));
  dirs.push(dir);
  live.clear();
  const db = await connect(dir);
  const table = await ChunkTable.create(db, 'chunks__t', 0);
  for (let d = 0; d < 12; d++) await table.add(doc(`d${d}`, 40));
  await table.ensureFtsIndex();
  return { db, table };
}

describe('document frequencies of the indexed part', () => {
  it('are read off the index while only rows were added (folded in or not), and counted by a new process after upkeep', async () => {
    const { db, table } = await setUp();
    expect(await expectCounts(table, 'fresh index')).toEqual({ derived: TERMS.length, counted: 0 });
    await table.add(doc('late', 30));
    expect(await expectCounts(table, 'appended, unindexed')).toEqual({ derived: 0, counted: 0 }); // cached
    await table.optimize();
    expect(await expectCounts(table, 'appended, folded in')).toEqual({ derived: TERMS.length, counted: 0 });
    table.closeSnapshots();
    const reopened = (await ChunkTable.open(db, 'chunks__t'))!;
    // Upkeep compacted and pruned the history, so a new process cannot tell that nothing went: it counts.
    expect(await expectCounts(reopened, 'reopened after upkeep')).toEqual({ derived: 0, counted: TERMS.length });
    reopened.closeSnapshots();
  }, 60_000);

  it('are counted once rows were removed: in this process, and after a reopen with the removal in the history', async () => {
    const { db, table } = await setUp();
    const reopenedClean = (await ChunkTable.open(db, 'chunks__t'))!;
    expect(await expectCounts(reopenedClean, 'reopened, history of appends')).toEqual({ derived: TERMS.length, counted: 0 });
    reopenedClean.closeSnapshots();
    await table.deleteWhere("doc_id IN ('d3', 'd4')");
    for (const id of [...live.keys()]) if (id.startsWith('d3#') || id.startsWith('d4#')) live.delete(id);
    expect(await expectCounts(table, 'deleted')).toEqual({ derived: 0, counted: TERMS.length });
    // Upkeep folds everything in, but LanceDB's statistics still count the removed rows.
    await table.optimize();
    expect(await expectCounts(table, 'deleted, after upkeep')).toEqual({ derived: 0, counted: TERMS.length });
    table.closeSnapshots();
    const reopened = (await ChunkTable.open(db, 'chunks__t'))!;
    expect(await expectCounts(reopened, 'reopened after a removal')).toEqual({ derived: 0, counted: TERMS.length });
    reopened.closeSnapshots();
  }, 60_000);

  it('are counted when the history shows a document replaced (one fragment dropped, one written, one commit)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-lexical-index-'));
    dirs.push(dir);
    live.clear();
    const db = await connect(dir);
    const table = await ChunkTable.create(db, 'chunks__t', 0);
    for (let d = 0; d < 12; d++) await table.add(doc(`d${d}`, 40));
    // The fragment count stays the same and no row is marked deleted: only the gap in fragment ids tells.
    await table.writeDocs(doc('d5v2', 40), ['d5']);
    for (const id of [...live.keys()]) if (id.startsWith('d5#')) live.delete(id);
    await table.ensureFtsIndex();
    expect(await expectCounts(table, 'indexed after a replacement')).toEqual({ derived: 0, counted: TERMS.length });
    table.closeSnapshots();
    const reopened = (await ChunkTable.open(db, 'chunks__t'))!;
    expect(await expectCounts(reopened, 'reopened')).toEqual({ derived: 0, counted: TERMS.length });
    reopened.closeSnapshots();
  }, 60_000);
});

import { connect, type Table } from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { indexTokens } from './bm25.js';
import type { ChunkRow } from './chunk-rows.js';
import { ChunkTable } from './chunk-table.js';
import { DeltaRows, MAX_KEPT_DELTA_ROWS } from './delta-rows.js';
import { endAddress } from './table-history.js';
import { tempDirsPerTest, textRow } from '../test-support.js';
import { prng } from '../util/prng.js';

/**
 * The rows a full-text index does not cover, read once per pinned version: their statistics and candidates against
 * a count over the live rows in JS, after appends, a delete among them and a replacement; with filters; read once
 * (LanceDB calls counted on the pinned handle); and past the bound, scanned by each search.
 */

const WORDS = 'lagoon reef coral atoll tide current kelp urchin sponge shoal'.split(' ');
const TERMS = new Set(['coral', 'kelp', 'shoal', 'absent']);
const tableDir = tempDirsPerTest('ragdesk-delta-rows-');

function doc(rand: () => number, live: Map<string, string>, docId: string, chunks: number): ChunkRow[] {
  return Array.from({ length: chunks }, (_, i) => {
    const text = Array.from({ length: 2 + Math.floor(rand() * 30) }, () => WORDS[Math.floor(rand() ** 2 * WORDS.length)]).join(' ');
    live.set(`${docId}#${i}`, text);
    return textRow(docId, i, text, 't');
  });
}

/** The table at its latest version, LanceDB's query and take calls counted. */
async function pinned(dir: string): Promise<{ table: Table; calls: () => number }> {
  const db = await connect(dir);
  const raw = await db.openTable('chunks__t');
  await raw.checkout(await raw.version());
  let calls = 0;
  const table = new Proxy(raw, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (key === 'query' || key === 'takeRowIds') calls++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { table, calls: () => calls };
}

/** What the delta must give for `TERMS`: statistics of every live delta row, the ids of those holding a term. */
function expected(delta: Map<string, string>, pass: (chunkId: string) => boolean = () => true) {
  const df = new Map<string, number>();
  let tokens = 0;
  const holding: string[] = [];
  for (const [id, text] of delta) {
    const tokensOf = indexTokens(text);
    tokens += tokensOf.length;
    const held = [...TERMS].filter((t) => tokensOf.includes(t));
    for (const t of held) df.set(t, (df.get(t) ?? 0) + 1);
    if (held.length > 0 && pass(id)) holding.push(id);
  }
  return { docs: delta.size, tokens, df, ids: holding.sort() };
}

async function check(rows: DeltaRows, delta: Map<string, string>, where?: string, pass?: (chunkId: string) => boolean) {
  const part = await rows.part(TERMS, where);
  const want = expected(delta, pass);
  expect({ docs: part.docs, tokens: part.tokens, df: part.df }).toEqual({ docs: want.docs, tokens: want.tokens, df: want.df });
  expect(part.candidates.map((c) => c.chunk_id).sort(), where ?? 'no filter').toEqual(want.ids);
  for (const c of part.candidates) expect(typeof c.rowid, 'a candidate carries its row id').toBe('bigint');
}

describe('DeltaRows', () => {
  it('counts the live rows above the watermark and keeps those holding a term that pass the filter, read once', async () => {
    const rand = prng(11);
    const dir = tableDir();
    const db = await connect(dir);
    const chunks = await ChunkTable.create(db, 'chunks__t', 0, dir);
    const indexed = new Map<string, string>();
    for (let d = 0; d < 4; d++) await chunks.add(doc(rand, indexed, `base${d}`, 30));
    await chunks.ensureFtsIndex();
    const watermark = await endAddress((await pinned(dir)).table);
    const delta = new Map<string, string>();
    for (const d of ['late1', 'late2', 'late3']) await chunks.add(doc(rand, delta, d, 12));
    await chunks.deleteWhere("doc_id = 'late2'");
    for (const id of [...delta.keys()]) if (id.startsWith('late2#')) delta.delete(id);
    // A replacement: the new rows land above the watermark too.
    await chunks.deleteWhere("doc_id = 'late3'");
    for (const id of [...delta.keys()]) if (id.startsWith('late3#')) delta.delete(id);
    await chunks.add(doc(rand, delta, 'late3', 7));
    chunks.closeSnapshots();

    const { table, calls } = await pinned(dir);
    const rows = new DeltaRows(table, watermark);
    await check(rows, delta);
    const afterRead = calls();
    expect(afterRead, 'the row ids, then the rows').toBe(2);
    await check(rows, delta);
    expect(calls(), 'a second search reads nothing').toBe(afterRead);
    await check(rows, delta, "doc_id = 'late3'", (id) => id.startsWith('late3#'));
    await check(rows, delta, 'chunk_index < 3', (id) => Number(id.split('#')[1]) < 3);
    expect(calls() - afterRead, 'a filter: the rows holding a term read by id with it').toBe(2);
    await check(rows, delta, "doc_id = 'none'", () => false);
    // Replaced by a newer version's snapshot: the rows go, a search still reading this one scans.
    rows.release();
    const released = calls();
    await check(rows, delta);
    await check(rows, delta, "doc_id = 'late3'", (id) => id.startsWith('late3#'));
    expect(calls() - released, 'scanned by each search').toBe(2);
    table.close();
  }, 60_000);

  it(`past ${MAX_KEPT_DELTA_ROWS} rows scans them for each search, with the same result`, async () => {
    const rand = prng(12);
    const dir = tableDir();
    const db = await connect(dir);
    const chunks = await ChunkTable.create(db, 'chunks__t', 0, dir);
    await chunks.add(doc(rand, new Map(), 'base', 50));
    await chunks.ensureFtsIndex();
    const watermark = await endAddress((await pinned(dir)).table);
    const delta = new Map<string, string>();
    await chunks.add(doc(rand, delta, 'big', MAX_KEPT_DELTA_ROWS + 1));
    chunks.closeSnapshots();

    const { table, calls } = await pinned(dir);
    const rows = new DeltaRows(table, watermark);
    await check(rows, delta);
    const first = calls();
    await check(rows, delta, 'chunk_index >= 2000', (id) => Number(id.split('#')[1]) >= 2000);
    expect(calls() - first, 'scanned again').toBe(1);
    table.close();
  }, 60_000);
});

import * as lancedb from '@lancedb/lancedb';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kb } from '../../shared/contract/index.js';
import { DEFAULT_CHUNKING } from '../../shared/contract/index.js';
import { MAX_TOKEN_BYTES } from '../store/bm25.js';
import type { ChunkRow } from '../store/chunk-table.js';
import { buildFts } from '../store/fts-index.js';
import { Store } from '../store/store.js';
import { tempDir } from '../test-support.js';
import { analyzeForIndex } from '../text/analyzer.js';
import { prng } from '../util/prng.js';
import { rankLexical } from './lexical-rank.js';

/**
 * The exact ranking (lexical-index.ts + bm25.ts) against LanceDB's own: after every kind of write, with the index
 * left as it is, the top 10 must be what a freshly built index of the same rows returns (same scores, same rows
 * up to ties). A real LanceDB table both times.
 */

const WORDS = (
  'harbour crane berth container vessel cargo customs declaration tariff duty port pilot tug anchor quay freight manifest invoice ' +
  'inspection react render concurrent hook state component suspense transition batch effect fiber scheduler'
).split(' ');
const RUSSIAN = 'таможня декларация пошлина груз контейнер причал высокопроизводительный'.split(' ');
const LONG_RU = 'высокопроизводительныйпогрузчик'; // > 40 UTF-8 bytes: the index ignores it

let dir: string;
let store: Store;
let db: lancedb.Connection;
const rand = prng(42);
const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;

function text(n: number): string {
  return Array.from({ length: n }, () => (rand() < 0.15 ? pick(RUSSIAN) : pick(WORDS))).join(' ');
}

let seq = 0;
function rows(docId: string, chunks: number, version = 'v1'): ChunkRow[] {
  return Array.from({ length: chunks }, (_, i) => {
    const body = seq++ % 29 === 0 ? '' : `${text(5 + Math.floor(rand() * 60))}${i === 1 ? ` ${LONG_RU}` : ''}`;
    return {
      chunk_id: `${docId}#${version}#${i}`,
      doc_id: docId,
      version,
      chunk_index: i,
      text: body,
      fts: analyzeForIndex(body),
      vector: null,
      title: docId,
      source: '',
      parser: 'text',
      page: null,
      heading_path: null,
      line_start: null,
      line_end: null,
      char_start: 0,
      char_end: body.length,
      tokens: 1,
      metadata: '{}',
      created_at: '2026-01-01',
      updated_at: '2026-01-01',
      meta: {},
    };
  });
}

const kb = { kb_id: 'k', embedding_model: 'none', chunking: DEFAULT_CHUNKING, metadata_fields: {} } as unknown as Kb;
const QUERIES = [
  'customs declaration',
  'react concurrent render',
  'таможенная декларация груза',
  'harbour crane berth container',
  'tariff',
  'zzz',
];

let fresh = 0;
/** The top 10 of a freshly built index holding exactly the table's live rows. */
async function freshTop(live: Array<{ chunk_id: string; fts: string }>, query: string) {
  const t = await db.createTable(`fresh${fresh++}`, live);
  await buildFts(t);
  const out = (await t
    .query()
    .fullTextSearch(analyzeForIndex(query), { columns: ['fts'] })
    .select(['chunk_id', '_score'])
    .limit(50)
    .toArray()) as Array<{ chunk_id: string; _score: number }>;
  return out.map((r) => ({ id: r.chunk_id, score: r._score }));
}

async function expectExact(step: string): Promise<void> {
  const table = (await store.openTable('chunks__k'))!;
  const live = (await (table as unknown as { table: lancedb.Table }).table.query().select(['chunk_id', 'fts']).toArray()) as Array<{
    chunk_id: string;
    fts: string;
  }>;
  for (const q of QUERIES) {
    const terms = [
      ...new Set(
        analyzeForIndex(q)
          .split(' ')
          .filter((t) => t && Buffer.byteLength(t) < MAX_TOKEN_BYTES),
      ),
    ];
    const mine = rankLexical([{ kb, part: await table.lexicalPart(terms, 50) }], 10);
    const ref = await freshTop(live, q);
    const refScore = new Map(ref.map((r) => [r.id, r.score]));
    const tol = (s: number) => 1e-4 * Math.max(1, s);
    expect(mine.length, `${step}: "${q}" hits`).toBe(Math.min(10, ref.length));
    mine.forEach((m, i) => {
      expect(Math.abs(m.score - ref[i]!.score), `${step}: "${q}" score at rank ${i + 1}`).toBeLessThan(tol(m.score));
      // The same row, or one tied with it in the fresh ranking.
      expect(Math.abs(m.score - (refScore.get(m.chunk_id) ?? -1)), `${step}: "${q}" ${m.chunk_id}`).toBeLessThan(tol(m.score));
    });
  }
}

beforeAll(async () => {
  dir = tempDir('ragdesk-lexical-');
  store = await Store.open(path.join(dir, 'lance'), path.join(dir, 'kbs.json'));
  db = await lancedb.connect(path.join(dir, 'fresh'));
});
afterAll(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('exact full-text ranking whatever the index state', () => {
  it('matches a freshly built index after appends, replacements, deletes, upkeep and a reopen', async () => {
    const table = await store.createTable('chunks__k', 0);
    // Unindexed only (no index yet).
    await table.add(Array.from({ length: 40 }, (_, d) => rows(`d${d}`, 3)).flat());
    await expectExact('no index');
    await table.ensureFtsIndex();
    await expectExact('fresh index');
    // The repro's shape: a tiny indexed part, then many rows with terms the index never saw.
    await table.add(rows('late', 30));
    await expectExact('appended');
    await table.writeDocs(rows('d3', 2, 'v2'), ['d3']);
    await table.writeDocs([...rows('d5', 4, 'v2'), ...rows('new', 2, 'v2')], ['d5']);
    await expectExact('replaced');
    await table.deleteDocs(['d7']);
    await table.deleteWhere("doc_id IN ('d8', 'late')");
    await expectExact('deleted');
    await table.optimize();
    expect(table.needsUpkeep).toBe(false);
    await expectExact('after upkeep');
    await table.add(rows('after', 5));
    await table.deleteDocs(['d9']);
    await expectExact('writes after upkeep');
    // A fresh process: the watermark is worked out from the table itself.
    store.close();
    store = await Store.open(path.join(dir, 'lance'), path.join(dir, 'kbs.json'));
    await expectExact('reopened with unindexed rows');
    const reopened = (await store.openTable('chunks__k'))!;
    expect(reopened.needsUpkeep).toBe(true);
    await reopened.optimize();
    await expectExact('reopened after upkeep');
  }, 120_000);

  it('a rollback puts the table back in one commit, and ranking stays exact', async () => {
    const table = (await store.openTable('chunks__k'))!;
    const before = await table.version();
    const count = await table.count();
    await table.writeDocs(rows('d10', 6, 'v9'), ['d10']);
    await table.rollbackTo(before);
    expect(await table.count()).toBe(count);
    expect(await table.count("doc_id = 'd10' AND version = 'v1'")).toBe(3);
    await expectExact('rolled back');
  }, 60_000);
});

describe('a ranking LanceDB scored (one KB, exact statistics)', () => {
  const scored = (chunk_id: string, score: number) => ({ chunk_id, doc_id: chunk_id.split('#')[0]!, chunk_index: 0, score });
  const part = (...c: ReturnType<typeof scored>[]) => ({ stats: { docs: 0, tokens: 0, df: new Map() }, candidates: [], scored: c });

  it('is taken as it came: best first, ties by chunk id, rows without a match dropped, `depth` of them', () => {
    const ranked = rankLexical(
      [{ kb, part: part(scored('b#1', 1.5), scored('a#9', 2), scored('a#2', 1.5), scored('z#0', 0), scored('c#3', 1)) }],
      3,
    );
    expect(ranked.map((r) => [r.chunk_id, r.score])).toEqual([
      ['a#9', 2],
      ['a#2', 1.5],
      ['b#1', 1.5],
    ]);
    expect(ranked.every((r) => r.kb === kb)).toBe(true);
  });

  it('is refused across KBs, whose statistics must be added up', () => {
    const other = { ...kb, kb_id: 'other' } as Kb;
    expect(() =>
      rankLexical(
        [
          { kb, part: part(scored('a#1', 1)) },
          { kb: other, part: part(scored('b#1', 1)) },
        ],
        10,
      ),
    ).toThrow(/one KB/);
  });
});

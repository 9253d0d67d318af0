import type * as lancedb from '@lancedb/lancedb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { bm25, emptyStats, idf, indexLength, queryTerms, termCounts, type LexStats } from '../store/bm25.js';
import type { LexicalPart } from '../store/lexical-index.js';
import { maintainIndexes } from '../services/indexing.js';
import { TableSnapshot } from '../store/snapshot.js';
import { openTestCore } from '../test-support.js';
import { analyzeForIndex } from '../text/analyzer.js';
import { prng } from '../util/prng.js';
import { partsToDeepen, unfetchedCeiling } from './lexical-depth.js';

const stats = (docs: number, tokens: number, df: Record<string, number>): LexStats => ({ docs, tokens, df: new Map(Object.entries(df)) });
const part = (bound: LexicalPart['bound'], own: LexStats = emptyStats()): LexicalPart => ({
  stats: own,
  candidates: [],
  ...(bound ? { bound } : {}),
});

describe('the ceiling of the rows a full-text list left behind', () => {
  const indexed = stats(100, 1000, { a: 10, b: 50 });

  it('is none when every row holding a term came back, and unknown without exact LanceDB scores', () => {
    expect(unfetchedCeiling(part({ indexed, full: false, lowest: 3 }), indexed)).toBe(0);
    expect(unfetchedCeiling(part(undefined), indexed)).toBeUndefined();
  });

  it('is the lowest score fetched times the largest idf ratio and the average-length ratio', () => {
    // Globally `b` is rarer relative to the rows (its idf grows most), rows are longer on average.
    const global = stats(400, 8000, { a: 60, b: 55 });
    const rb = idf(55, 400) / idf(50, 100);
    expect(rb).toBeGreaterThan(idf(60, 400) / idf(10, 100));
    const ceiling = unfetchedCeiling(part({ indexed, full: true, lowest: 2 }), global)!;
    expect(ceiling / (2 * rb * 2)).toBeCloseTo(1, 3);
    // Shorter rows globally: the length factor is 1, never below.
    const shorter = stats(400, 2000, { a: 60, b: 55 });
    expect(unfetchedCeiling(part({ indexed, full: true, lowest: 2 }), shorter)! / (2 * rb)).toBeCloseTo(1, 3);
  });

  it('bounds what any row of the part can score under the global statistics', () => {
    // Brute force over rows of every length and term count: local BM25 ≤ lowest ⇒ global BM25 ≤ ceiling.
    const global = stats(400, 8000, { a: 60, b: 55 });
    let worst = 0;
    for (let dl = 1; dl <= 200; dl += 7)
      for (let ta = 0; ta <= 5; ta++)
        for (let tb = 0; tb <= 5; tb++) {
          if (ta + tb === 0 || ta + tb > dl) continue;
          const tf = new Map(Object.entries({ a: ta, b: tb }).filter(([, n]) => n > 0));
          const local = bm25(tf, dl, indexed);
          const ceiling = unfetchedCeiling(part({ indexed, full: true, lowest: local }), global)!;
          worst = Math.max(worst, bm25(tf, dl, global) / ceiling);
        }
    expect(worst).toBeLessThanOrEqual(1);
    expect(worst).toBeGreaterThan(0.5);
  });

  it('asks for the parts whose ceiling reaches the k-th score, not those without a bound', () => {
    const global = stats(200, 2000, { a: 20, b: 100 });
    const deep = part({ indexed, full: true, lowest: 5 }, stats(100, 1000, { a: 10, b: 50 }));
    const done = part({ indexed, full: false, lowest: 5 }, stats(50, 500, { a: 5, b: 25 }));
    const unbounded = part(undefined, stats(50, 500, { a: 5, b: 25 }));
    const ranked = (kth: number) => [{ score: kth + 1 }, { score: kth }];
    expect(unfetchedCeiling(deep, global)).toBeGreaterThan(5);
    expect(partsToDeepen([deep, done, unbounded], ranked(5), 2)).toEqual([0]);
    expect(partsToDeepen([deep, done, unbounded], ranked(100), 2)).toEqual([]);
    // Fewer rows than k scored: any row left behind could enter.
    expect(partsToDeepen([deep, done], ranked(100), 3)).toEqual([0]);
  });
});

/**
 * Two real KBs whose statistics disagree: in KB `a`, "beta" is rarer than "alpha", so LanceDB ranks its 150 beta rows
 * above its 300 alpha rows; KB `b` holds beta in most of its rows, so across both KBs alpha is the rare term and the
 * best rows of the two are alpha rows of `a` that its own index ranks below its first 150. A fixed depth of 100 (what
 * several KBs were read to before) misses every one of them.
 */
describe('several KBs whose statistics disagree', () => {
  let core: Core;
  const rand = prng(7);
  const FILLER = 'gamma delta epsilon zeta theta iota kappa lambda sigma omega'.split(' ');
  const filler = (n: number) => Array.from({ length: n }, () => FILLER[Math.floor(rand() * FILLER.length)]).join(' ');
  let seq = 0;
  const doc = (id: string, lead: string) => ({
    doc_id: id,
    title: 'note',
    content: `${lead} ${filler(5 + Math.floor(rand() * 40))}`,
    metadata: { shelf: seq++ % 3 === 0 ? 'top' : 'low' },
  });
  const query = 'alpha beta';

  beforeAll(async () => {
    core = await openTestCore();
    const docs: Record<string, Array<ReturnType<typeof doc>>> = { a: [], b: [] };
    for (let i = 0; i < 150; i++) docs.a!.push(doc(`x${i}`, 'beta'));
    for (let i = 0; i < 300; i++) docs.a!.push(doc(`y${i}`, i % 3 === 0 ? 'alpha alpha' : 'alpha'));
    for (let i = 0; i < 50; i++) docs.a!.push(doc(`f${i}`, ''));
    for (let i = 0; i < 1500; i++) docs.b!.push(doc(`b${i}`, i < 1200 ? 'beta '.repeat(1 + (i % 3)) : ''));
    for (const kb of ['a', 'b']) {
      await core.client.createKb({ kb_id: kb, embedding_model: 'none', chunking: { strategy: 'whole' } });
      const list = docs[kb]!;
      for (let i = 0; i < list.length; i += 500) await core.client.addDocumentsBatch({ kb_id: kb, documents: list.slice(i, i + 500) });
      // Indexed, with exact statistics, before any search: how deep each list is read depends on it (a CI run under
      // load searched while the background upkeep of these writes had not finished, and read a list once more).
      await maintainIndexes(core.ctx, kb, true);
    }
  }, 120_000);
  afterAll(async () => core.close());

  /**
   * Every row of the KBs ranked by BM25 over their summed statistics, by brute force; `shelf`: only rows of that
   * shelf ranked (statistics over every row, as a filtered search counts them).
   */
  async function bruteForce(kbs: string[], shelf?: string) {
    const terms = queryTerms(analyzeForIndex(query));
    const rows: Array<{ kb: string; doc: string; tf: Map<string, number>; dl: number; shelf: string }> = [];
    for (const kb of kbs) {
      const table = (await core.ctx.store.chunks(kb))! as unknown as { table: lancedb.Table };
      const all = (await table.table.query().select(['doc_id', 'fts', 'metadata']).toArray()) as Array<{
        doc_id: string;
        fts: string;
        metadata: string;
      }>;
      for (const r of all)
        rows.push({
          kb,
          doc: r.doc_id,
          tf: termCounts(r.fts, new Set(terms)),
          dl: indexLength(r.fts),
          shelf: (JSON.parse(r.metadata) as { shelf: string }).shelf,
        });
    }
    const global = emptyStats();
    for (const r of rows) {
      global.docs++;
      global.tokens += r.dl;
      for (const t of r.tf.keys()) global.df.set(t, (global.df.get(t) ?? 0) + 1);
    }
    return rows
      .filter((r) => shelf === undefined || r.shelf === shelf)
      .map((r) => ({ id: `${r.kb}/${r.doc}`, score: bm25(r.tf, r.dl, global) }))
      .filter((r) => r.score > 0)
      .sort((x, y) => y.score - x.score || x.id.localeCompare(y.id));
  }

  it('gives the exact top hits, read deeper only where the bound asks', async () => {
    const reads: number[] = [];
    const bySnapshot = new Map<TableSnapshot, number[]>();
    const original = TableSnapshot.prototype.lexicalPart;
    TableSnapshot.prototype.lexicalPart = function (this: TableSnapshot, ...args: Parameters<typeof original>) {
      reads.push(args[1]);
      bySnapshot.set(this, [...(bySnapshot.get(this) ?? []), args[1]]);
      return original.apply(this, args);
    };
    try {
      const expected = (await bruteForce(['a', 'b'])).slice(0, 10);
      // The premise: every one of them is an alpha row of `a`, below the first 100 of its own index's ranking.
      expect(expected.every((r) => r.id.startsWith('a/y'))).toBe(true);
      for (const mode of ['fts', 'hybrid'] as const) {
        reads.length = 0;
        bySnapshot.clear();
        const res = await core.client.search({ kb_ids: ['a', 'b'], query, mode, top_k: 10, use_rerank: false });
        expect(
          res.hits.map((h) => `${h.kb_id}/${h.doc_id}`),
          mode,
        ).toEqual(expected.map((r) => r.id));
        if (mode === 'fts') res.hits.forEach((h, i) => expect(h.score / expected[i]!.score).toBeCloseTo(1, 5));
        // Both KBs read first at their share of the head that must be exact (fts: 20 for 10 hits; hybrid: the 100 rows
        // fusion reads, which the two KBs share), then deeper where the bound asks: `a` past 150 rows.
        const first = mode === 'fts' ? 20 : 100;
        const perKb = [...bySnapshot.values()];
        expect(
          perKb.map((r) => r[0]),
          mode,
        ).toEqual([first, first]);
        expect(Math.max(...reads), mode).toBeGreaterThan(150);
      }
      // A filter goes into each KB's query (LanceDB prefilters): the statistics stay every row's, the bound holds.
      const top = (await bruteForce(['a', 'b'], 'top')).slice(0, 10);
      const filtered = await core.client.search({
        kb_ids: ['a', 'b'],
        query,
        mode: 'fts',
        top_k: 10,
        use_rerank: false,
        filter: { shelf: 'top' },
      });
      expect(filtered.hits.map((h) => `${h.kb_id}/${h.doc_id}`)).toEqual(top.map((r) => r.id));
      // One KB alone ranks under its own statistics: LanceDB's ranking, one read.
      reads.length = 0;
      const alone = await core.client.search({ kb_ids: ['b'], query, mode: 'fts', top_k: 10, use_rerank: false });
      expect(alone.hits.map((h) => `b/${h.doc_id}`)).toEqual((await bruteForce(['b'])).slice(0, 10).map((r) => r.id));
      expect(reads.length).toBe(1);
    } finally {
      TableSnapshot.prototype.lexicalPart = original;
    }
  }, 60_000);

  it('reads a list no deeper than maxLexicalDepth (or twice the ranking depth), however far its bound asks', async () => {
    const reads: number[] = [];
    const original = TableSnapshot.prototype.lexicalPart;
    const options = core.ctx.options as { maxLexicalDepth: number };
    const cap = options.maxLexicalDepth;
    TableSnapshot.prototype.lexicalPart = function (this: TableSnapshot, ...args: Parameters<typeof original>) {
      reads.push(args[1]);
      return original.apply(this, args);
    };
    try {
      options.maxLexicalDepth = 30;
      const res = await core.client.search({ kb_ids: ['a', 'b'], query, mode: 'fts', top_k: 10, use_rerank: false });
      expect(res.hits).toHaveLength(10);
      // fts ranks 50 deep: twice that is the floor of the cap (the fixed depth of a list without a bound). Both lists
      // are read first at the head's depth, then 4× deeper where the bound asks, and never past the cap (without it,
      // 320). Which of the two lists goes to 80 depends on ties between equal rows, so not the order of the reads.
      expect(reads.slice(0, 2)).toEqual([20, 20]);
      expect(reads.every((d) => [20, 80, 100].includes(d))).toBe(true);
      expect(Math.max(...reads)).toBe(100);
    } finally {
      TableSnapshot.prototype.lexicalPart = original;
      options.maxLexicalDepth = cap;
    }
  });

  it('searches stay whole while one KB is written, and exact once its upkeep has run', async () => {
    let writing = true;
    let searches = 0;
    const reader = async (mode: 'fts' | 'hybrid') => {
      while (writing) {
        const res = await core.client.search({ kb_ids: ['a', 'b'], query, mode, top_k: 10, use_rerank: false });
        const keys = res.hits.map((h) => `${h.kb_id}/${h.doc_id}`);
        expect(new Set(keys).size, 'no hit twice').toBe(keys.length);
        expect(keys.length).toBe(10);
        const scores = res.hits.map((h) => h.score);
        expect([...scores].sort((x, y) => y - x)).toEqual(scores);
        searches++;
      }
    };
    const readers = [reader('fts'), reader('hybrid')];
    // Appends with both terms, replacements, and removals of the best alpha rows: the index's statistics stop
    // being the live rows' (no bound: read to the fixed depth) until upkeep builds it again.
    for (let i = 0; i < 6; i++) {
      await core.client.addDocumentsBatch({ kb_id: 'a', documents: Array.from({ length: 20 }, (_, j) => doc(`n${i}-${j}`, 'alpha beta')) });
      await core.client.addDocument({ kb_id: 'a', ...doc(`y${i}`, 'alpha alpha alpha'), overwrite: true });
      await core.client.deleteDocument({ kb_id: 'a', doc_id: `y${100 + i}` });
    }
    writing = false;
    await Promise.all(readers);
    expect(searches).toBeGreaterThan(5);
    // An upkeep its timer started comes while the forced one builds (CI: under load, the writes outlast its delay).
    const forced = maintainIndexes(core.ctx, 'a', true);
    const timed = maintainIndexes(core.ctx, 'a');
    await forced;
    const expected = (await bruteForce(['a', 'b'])).slice(0, 10);
    const res = await core.client.search({ kb_ids: ['a', 'b'], query, mode: 'fts', top_k: 10, use_rerank: false });
    expect(res.hits.map((h) => `${h.kb_id}/${h.doc_id}`)).toEqual(expected.map((r) => r.id));
    await timed;
  }, 120_000);

  it('a search while one KB’s full-text index is built beside writes, nothing written since, is exact', async () => {
    await core.client.addDocument({ kb_id: 'a', ...doc('beside', 'beta alpha') });
    const table = (await core.ctx.store.chunks('a'))!;
    let release!: () => void;
    let begun!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const started = new Promise<void>((r) => (begun = r));
    // Upkeep's build, held open after LanceDB's commit of the new index (the KB's write lock keeps the timer's out).
    const building = core.ctx.store.writes.run('a', async () => {
      const { done } = await table.rebuildFtsBeside(() => gate);
      begun();
      await done;
    });
    try {
      await started;
      expect(table.ftsRebuilding).toBe(true);
      const expected = (await bruteForce(['a', 'b'])).slice(0, 10);
      const res = await core.client.search({ kb_ids: ['a', 'b'], query, mode: 'fts', top_k: 10, use_rerank: false });
      expect(res.hits.map((h) => `${h.kb_id}/${h.doc_id}`)).toEqual(expected.map((r) => r.id));
    } finally {
      release();
      await building;
    }
  }, 60_000);

  it('one KB with a row waiting for upkeep: its hybrid list is read once, past the 100 rows fusion reads', async () => {
    await core.client.addDocument({ kb_id: 'a', ...doc('late', 'alpha beta alpha') });
    // Upkeep takes the KB's write lock: held, the row stays unindexed for the search.
    let release!: () => void;
    const held = core.ctx.store.writes.run('a', () => new Promise<void>((r) => (release = r)));
    const reads: number[] = [];
    const original = TableSnapshot.prototype.lexicalPart;
    TableSnapshot.prototype.lexicalPart = function (this: TableSnapshot, ...args: Parameters<typeof original>) {
      reads.push(args[1]);
      return original.apply(this, args);
    };
    try {
      expect((await core.ctx.store.chunks('a'))!.needsUpkeep).toBe(true);
      const res = await core.client.search({ kb_ids: ['a'], query, mode: 'hybrid', top_k: 10, use_rerank: false });
      expect(res.hits.map((h) => `a/${h.doc_id}`)).toEqual((await bruteForce(['a'])).slice(0, 10).map((r) => r.id));
      // Read only as deep as the 100 rows, its last row would be the lowest fetched and nothing would bound the
      // rest: it was read again 400 deep. Half as deep again bounds them here.
      expect(reads).toEqual([150]);
    } finally {
      TableSnapshot.prototype.lexicalPart = original;
      release();
      await held;
    }
  }, 60_000);
});

/**
 * One KB whose 100-row hybrid list ends inside a group of tied rows (copies of one passage: the `scale` bench's
 * recombined text ties this way often): fusion's list leaves the group out instead of reading 400 rows.
 */
describe('a hybrid list that ends in a tie', () => {
  let core: Core;
  // 72 rows scored apart ('lighthouse' tf times in a row of `len` tokens), then 80 copies of one weaker row.
  const apart = Array.from({ length: 6 * 12 }, (_, i) => ({ tf: 1 + Math.floor(i / 12), len: 2 + Math.floor(i / 12) + (i % 12) }));
  const rows = [...apart, ...Array.from({ length: 80 }, () => ({ tf: 1, len: 40 }))];

  beforeAll(async () => {
    core = await openTestCore();
    await core.client.createKb({ kb_id: 'ties', embedding_model: 'none', chunking: { strategy: 'whole' } });
    const documents = rows.map(({ tf, len }, i) => ({
      doc_id: `r${String(i).padStart(3, '0')}`,
      title: 'note',
      // Punctuation tells the copies apart (the same text twice would be stored once) and is not indexed.
      content: `${[...Array<string>(tf).fill('lighthouse'), ...Array<string>(len - tf).fill('keeper')].join(' ')} ${'!'.repeat(1 + i)}`,
    }));
    await core.client.addDocumentsBatch({ kb_id: 'ties', documents });
    await maintainIndexes(core.ctx, 'ties', true);
  }, 120_000);
  afterAll(async () => core.close());

  it('is read once and leaves the tied group out', async () => {
    const lists: Array<{ depth: number; rows: number }> = [];
    const original = TableSnapshot.prototype.lexicalPart;
    TableSnapshot.prototype.lexicalPart = async function (this: TableSnapshot, ...args: Parameters<typeof original>) {
      const part = await original.apply(this, args);
      lists.push({ depth: args[4] ?? args[1], rows: part.scored?.length ?? part.candidates.length });
      return part;
    };
    try {
      const search = (mode: 'fts' | 'hybrid', top_k: number) =>
        core.client.search({ kb_ids: ['ties'], query: 'lighthouse', mode, top_k, use_rerank: false });
      const hybrid = await search('hybrid', 10);
      // Without the cut: [{ depth: 100, rows: 152 }], the whole tie read 400 deep.
      expect(lists).toEqual([{ depth: 100, rows: 72 }]);
      // A full-text only KB's hybrid search is its full-text ranking: the same head as full-text mode's.
      const fts = await search('fts', 50);
      expect(new Set(fts.hits.map((h) => h.doc_id)).size).toBe(50);
      expect(fts.hits.every((h) => Number(h.doc_id.slice(1)) < apart.length)).toBe(true);
      expect(hybrid.hits.map((h) => h.doc_id)).toEqual(fts.hits.slice(0, 10).map((h) => h.doc_id));
    } finally {
      TableSnapshot.prototype.lexicalPart = original;
    }
  }, 60_000);
});

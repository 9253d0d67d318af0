import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AddSourceInputSchema } from '../../shared/contract/index.js';
import { Core } from '../core.js';
import { openTestCore, tempDir } from '../test-support.js';
import { DEFAULT_OPTIONS } from './context.js';
import {
  anyIndexingAhead,
  BULK_IDLE_MS,
  flushIndexing,
  indexingScheduled,
  maintainIndexes,
  MAX_DELAY_FEW_ROWS_MS,
  MAX_DELAY_MS,
  scheduleIndexing,
  SEARCH_RECENT_MS,
  upkeepDelay,
  upkeepDue,
  upkeepRuns,
  upkeepState,
} from './indexing.js';
import { MAX_KEPT_DELTA_ROWS } from '../store/delta-rows.js';
import { COMPACT_AT_FRAGMENTS, compactAfterWrites, MAX_UNCOMPACTED_RUNS } from './upkeep-policy.js';

describe('upkeepDue: a KB written by a job waits for the job, unless it is searched', () => {
  const now = 1_000_000;
  const bound = DEFAULT_OPTIONS.upkeepDeferRows;
  const writing = { bulkWriters: 1, lastWriteAt: now - 100, lastSearchAt: -Infinity, rowsSinceUpkeep: bound - 1 };

  it('waits while a job writes and nobody searches', () => {
    expect(upkeepDue(writing, now, bound)).toBe(false);
    expect(upkeepDue({ ...writing, lastSearchAt: now - SEARCH_RECENT_MS - 1 }, now, bound)).toBe(false);
  });

  it('runs with no job, after a recent search, when the job stopped writing, or once it wrote the bound', () => {
    expect(upkeepDue({ ...writing, bulkWriters: 0 }, now, bound)).toBe(true);
    expect(upkeepDue({ ...writing, lastSearchAt: now - 5_000 }, now, bound)).toBe(true);
    expect(upkeepDue({ ...writing, lastWriteAt: now - BULK_IDLE_MS }, now, bound)).toBe(true);
    expect(upkeepDue({ ...writing, rowsSinceUpkeep: bound }, now, bound)).toBe(true);
    // The one-shot CLI serves no search while it writes: no bound.
    expect(upkeepDue({ ...writing, rowsSinceUpkeep: 10 * bound }, now, Infinity)).toBe(false);
  });
});

describe('what upkeepDue reads', () => {
  it('a job counts as writing its KB while it runs, its rows until upkeep; a search of the KB is noted', async () => {
    const core = await Core.open({ dataDir: tempDir(), allowDownload: false });
    try {
      await core.client.createKb({ kb_id: 'k' });
      const dir = tempDir('ragdesk-upkeep-');
      for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(dir, `n-${i}.txt`), `note ${i}: pallet ${i * 7} left dock ${i % 5}.`);
      await core.sources.add(AddSourceInputSchema.parse({ kb_id: 'k', path: dir, source_id: 's' }), false);
      const seen: number[] = [];
      await core.sources.sync('s', {}, false, () => seen.push(upkeepState(core.ctx, 'k').bulkWriters));
      expect(seen).toContain(1);
      expect(seen.slice(0, -1).every((n) => n === 1)).toBe(true);
      expect(upkeepState(core.ctx, 'k').bulkWriters).toBe(0);
      expect(upkeepState(core.ctx, 'k').lastWriteAt).toBeGreaterThan(-Infinity);
      // The job's rows are counted until upkeep takes them in.
      expect(upkeepState(core.ctx, 'k').rowsSinceUpkeep).toBe(40);
      await maintainIndexes(core.ctx, 'k');
      expect(upkeepState(core.ctx, 'k').rowsSinceUpkeep).toBe(0);

      expect(upkeepState(core.ctx, 'k').lastSearchAt).toBe(-Infinity);
      const before = performance.now();
      expect((await core.client.search({ query: 'pallet', kb_ids: ['k'], mode: 'fts' })).hits.length).toBeGreaterThan(0);
      expect(upkeepState(core.ctx, 'k').lastSearchAt).toBeGreaterThanOrEqual(before);
    } finally {
      await core.close();
    }
  });
});

describe('anyIndexingAhead: what Core.close clears the heaps for', () => {
  it('is true while upkeep waits to run and while it runs, false once it settled', async () => {
    const core = await openTestCore();
    try {
      await core.client.createKb({ kb_id: 'k' });
      expect(anyIndexingAhead(core.ctx)).toBe(false);
      await core.client.addDocumentsBatch({ kb_id: 'k', documents: [{ doc_id: 'a', content: 'pallet left dock four' }] });
      expect(anyIndexingAhead(core.ctx)).toBe(true);
      // flushIndexing starts the waiting upkeep: running now, until it settles.
      const flushed = flushIndexing(core.ctx);
      expect(anyIndexingAhead(core.ctx)).toBe(true);
      await flushed;
      expect(anyIndexingAhead(core.ctx)).toBe(false);
    } finally {
      await core.close();
    }
  });
});

describe('a write that ends while upkeep runs', () => {
  it('arms the next upkeep when the run ends, not meanwhile (no run right behind the one under way)', async () => {
    const core = await openTestCore();
    try {
      await core.client.createKb({ kb_id: 'k' });
      await core.client.addDocumentsBatch({ kb_id: 'k', documents: [{ doc_id: 'a', content: 'pallet left dock four' }] });
      await flushIndexing(core.ctx);
      await core.client.addDocumentsBatch({ kb_id: 'k', documents: [{ doc_id: 'b', content: 'crate left dock five' }] });
      const runs = upkeepRuns(core.ctx).length;
      const flushed = flushIndexing(core.ctx);
      // What the end of a write calls: while the run goes on, no timer is armed (it would fire behind the run with
      // the delay of the run before, and a write arriving then would wait for both).
      scheduleIndexing(core.ctx, 'k', 1);
      expect(indexingScheduled(core.ctx, 'k')).toBe(false);
      expect(anyIndexingAhead(core.ctx)).toBe(true);
      // A real write queued behind the run: flushIndexing also runs what it armed.
      await core.client.addDocumentsBatch({ kb_id: 'k', documents: [{ doc_id: 'c', content: 'barrel left dock six' }] });
      await flushed;
      expect(anyIndexingAhead(core.ctx)).toBe(false);
      expect(upkeepRuns(core.ctx).length).toBeGreaterThan(runs);
      expect(await (await core.ctx.store.chunks('k'))!.unindexedRows()).toBe(0);
      const hits = await core.client.search({ query: 'left dock', kb_ids: ['k'], mode: 'fts', top_k: 5 });
      expect(hits.hits.map((h) => h.doc_id).sort()).toEqual(['a', 'b', 'c']);
    } finally {
      await core.close();
    }
  });
});

describe('rows written before any full-text index', () => {
  it('are compacted once, then indexed: one fragment, every row found, the same hits as before upkeep', async () => {
    // What the one-shot CLI does: no inline index on the first write, so a job's batches wait for the end's upkeep.
    const core = await Core.open({ dataDir: tempDir(), allowDownload: false, inlineIndexRows: 0 });
    try {
      await core.client.createKb({ kb_id: 'k' });
      for (let i = 0; i < 6; i++) {
        const text = Array.from({ length: 5 }, (_, k) => `Crate ${i}-${k} of batch${i} cleared customs at dock ${k}.`).join('\n\n');
        await core.client.addDocument({ kb_id: 'k', content: text, title: `batch ${i}` });
      }
      const table = (await core.ctx.store.chunks('k'))!;
      expect(table.ftsIndexReady).toBe(false);
      expect(await table.fragments()).toBeGreaterThanOrEqual(6);
      const scanned = (await core.client.search({ query: 'batch3 customs', kb_ids: ['k'], mode: 'fts', top_k: 5 })).hits;
      await maintainIndexes(core.ctx, 'k');
      expect(table.ftsIndexReady).toBe(true);
      // Compacted before the build: with the index built first, its fragment and the rest are compacted apart.
      expect(await table.fragments()).toBe(1);
      expect(await table.unindexedRows()).toBe(0);
      const indexed = (await core.client.search({ query: 'batch3 customs', kb_ids: ['k'], mode: 'fts', top_k: 5 })).hits;
      const ids = (hits: typeof scanned) => hits.map((h) => `${h.doc_id}#${h.chunk_index}`);
      expect(ids(indexed)).toEqual(ids(scanned));
      expect(indexed.length).toBeGreaterThan(0);
      expect(indexed[0]!.text).toContain('batch3');
    } finally {
      await core.close();
    }
  });
});

const note = (i: number) => `Crate ${i} of lot${i} cleared customs at dock ${i % 3}.`;

/** KB `k` with notes d0-d19 (`note(i)`), indexed by a forced upkeep; its chunk table. */
async function twentyIndexedNotes(core: Core) {
  await core.client.createKb({ kb_id: 'k' });
  await core.client.addDocumentsBatch({
    kb_id: 'k',
    documents: Array.from({ length: 20 }, (_, i) => ({ doc_id: `d${i}`, content: note(i) })),
  });
  await maintainIndexes(core.ctx, 'k', true);
  return (await core.ctx.store.chunks('k'))!;
}

describe('upkeep compacts only when it pays (compactionDue)', () => {
  it('after a few single writes it builds the full-text index again and leaves the fragments; every few runs it compacts', async () => {
    const core = await openTestCore();
    try {
      const table = await twentyIndexedNotes(core);
      for (let run = 0; run < MAX_UNCOMPACTED_RUNS; run++) {
        await core.client.addDocument({ kb_id: 'k', doc_id: `n${run}`, content: note(100 + run) });
        // A write that replaces: its old rows stay in their fragment, hidden, until a compaction.
        await core.client.addDocument({ kb_id: 'k', doc_id: 'd1', content: `${note(1)} Revised ${run}.`, overwrite: true });
        const written = await table.fragments();
        await maintainIndexes(core.ctx, 'k');
        expect(upkeepRuns(core.ctx).at(-1)).toMatchObject({ kb_id: 'k', compacted: false });
        expect(await table.fragments()).toBe(written);
        // Every row indexed all the same, the replaced ones gone from the results.
        expect(await table.unindexedRows()).toBe(0);
        const hits = await core.client.search({ query: `lot${100 + run}`, kb_ids: ['k'], mode: 'fts', top_k: 3 });
        expect(hits.hits[0]?.doc_id).toBe(`n${run}`);
        const lot1 = await core.client.search({ query: 'lot1', kb_ids: ['k'], mode: 'fts', top_k: 5 });
        expect(lot1.hits.map((h) => h.text)).toEqual([`${note(1)} Revised ${run}.`]);
      }
      await core.client.addDocument({ kb_id: 'k', doc_id: 'last', content: note(200) });
      const written = await table.fragments();
      await maintainIndexes(core.ctx, 'k');
      expect(upkeepRuns(core.ctx).at(-1)).toMatchObject({ kb_id: 'k', compacted: true });
      expect(await table.fragments()).toBeLessThan(written);
      expect(await table.unindexedRows()).toBe(0);
      expect((await core.client.search({ query: 'lot200', kb_ids: ['k'], mode: 'fts', top_k: 3 })).hits[0]?.doc_id).toBe('last');
    } finally {
      await core.close();
    }
  });
});

describe('upkeep comes early once enough fragments wait (compactAfterWrites)', () => {
  it('the write that brings the count there moves an upkeep armed for later to now; a compaction starts it again', async () => {
    const core = await openTestCore();
    try {
      const table = await twentyIndexedNotes(core);
      const s = upkeepState(core.ctx, 'k');
      await flushIndexing(core.ctx);
      await core.client.addDocument({ kb_id: 'k', doc_id: 'n1', content: note(101) });
      expect(s.writesSinceCompaction).toBe(1);
      await maintainIndexes(core.ctx, 'k', true);
      expect(upkeepRuns(core.ctx).at(-1)).toMatchObject({ kb_id: 'k', compacted: true });
      expect(s.writesSinceCompaction).toBe(0);
      expect(s.lastCompactMs).toBeGreaterThan(0);
      const due = compactAfterWrites(s.lastCompactMs);
      // What the end of each single write calls, synchronously here: no timer fires in between.
      for (let i = 1; i < due; i++) scheduleIndexing(core.ctx, 'k', 1);
      expect(indexingScheduled(core.ctx, 'k')).toBe(true);
      // Armed by its cost (at least 1.5 s away); a delete appends no fragment and changes nothing.
      expect(s.timerAt - performance.now()).toBeGreaterThan(1_000);
      scheduleIndexing(core.ctx, 'k', 0);
      expect(s.writesSinceCompaction).toBe(due - 1);
      expect(s.timerAt - performance.now()).toBeGreaterThan(1_000);
      scheduleIndexing(core.ctx, 'k', 1);
      expect(indexingScheduled(core.ctx, 'k')).toBe(true);
      expect(s.timerAt).toBeLessThanOrEqual(performance.now());
      const runs = upkeepRuns(core.ctx).length;
      // Those writes were not real: the table has its few fragments, so the run does not compact, and the count
      // falls to them (else every write would bring another run).
      await flushIndexing(core.ctx);
      expect(
        upkeepRuns(core.ctx)
          .slice(runs)
          .some((r) => r.compacted),
      ).toBe(false);
      expect(s.writesSinceCompaction).toBeLessThanOrEqual(await table.fragments());
      expect(s.writesSinceCompaction).toBeLessThan(due);
    } finally {
      await core.close();
    }
  });
});

describe('the delay of upkeep: ten times its last cost, bounded by the rows and fragments waiting', () => {
  it('up to MAX_DELAY_FEW_ROWS_MS while few wait, MAX_DELAY_MS when many do', () => {
    expect(upkeepDelay(20, false)).toBe(1_500);
    expect(upkeepDelay(3_000, false)).toBe(30_000);
    expect(upkeepDelay(30_000, false)).toBe(300_000);
    expect(upkeepDelay(85_000, false)).toBe(MAX_DELAY_FEW_ROWS_MS);
    expect(upkeepDelay(30_000, true)).toBe(MAX_DELAY_MS);
    expect(upkeepDelay(3_000, true)).toBe(30_000);
  });

  for (const [what, rows, writes] of [
    [`more than ${MAX_KEPT_DELTA_ROWS} rows`, MAX_KEPT_DELTA_ROWS, 1],
    [`more than ${COMPACT_AT_FRAGMENTS} writes (fragments)`, 1, COMPACT_AT_FRAGMENTS],
  ] as const)
    it(`a delay armed for a few rows is cut back when ${what} come`, async () => {
      const core = await openTestCore();
      try {
        await twentyIndexedNotes(core);
        await flushIndexing(core.ctx);
        const s = upkeepState(core.ctx, 'k') as { lastMs: number; lastCompactMs: number; timerAt: number };
        // As after a run of 30 s (a 1M-chunk KB's full-text build), with a compaction of 90 s before it: 424 writes
        // before one is due by count (compactAfterWrites).
        s.lastMs = 30_000;
        s.lastCompactMs = 90_000;
        scheduleIndexing(core.ctx, 'k', 3);
        expect(s.timerAt - performance.now()).toBeGreaterThan(290_000);
        scheduleIndexing(core.ctx, 'k', 3);
        expect(s.timerAt - performance.now(), 'few rows: left as armed').toBeGreaterThan(290_000);
        for (let i = 0; i < writes; i++) scheduleIndexing(core.ctx, 'k', i === 0 ? rows : 1);
        expect(indexingScheduled(core.ctx, 'k')).toBe(true);
        expect(s.timerAt - performance.now()).toBeLessThanOrEqual(MAX_DELAY_MS);
        expect(s.timerAt - performance.now()).toBeGreaterThan(MAX_DELAY_MS - 5_000);
      } finally {
        await core.close();
      }
    });
});

describe('upkeep that does not compact', () => {
  it('builds the full-text index after letting the KB’s write lock go: a write lands meanwhile and is found', async () => {
    const core = await openTestCore();
    try {
      const table = await twentyIndexedNotes(core);
      await core.client.addDocument({ kb_id: 'k', doc_id: 'n1', content: note(101) });
      const upkeep = maintainIndexes(core.ctx, 'k');
      // Queued behind upkeep's part under the lock, this gets the lock while the build still runs.
      await core.ctx.store.writes.run('k', async () => expect(table.ftsRebuilding).toBe(true));
      await core.client.addDocument({ kb_id: 'k', doc_id: 'n2', content: note(102) });
      expect((await core.client.search({ query: 'lot102', kb_ids: ['k'], mode: 'fts', top_k: 3 })).hits[0]?.doc_id).toBe('n2');
      await upkeep;
      expect(upkeepRuns(core.ctx).at(-1)).toMatchObject({ kb_id: 'k', compacted: false });
      for (const lot of [101, 102, 5])
        expect((await core.client.search({ query: `lot${lot}`, kb_ids: ['k'], mode: 'fts', top_k: 3 })).hits.map((h) => h.text)).toEqual([
          note(lot),
        ]);
      await flushIndexing(core.ctx);
      expect(await table.unindexedRows()).toBe(0);
    } finally {
      await core.close();
    }
  });
});

describe('an upkeep that comes while a build beside writes is under way', () => {
  it('does nothing when that build covers every write: no second build, the statistics exact once the first ends', async () => {
    const core = await openTestCore();
    try {
      const table = await twentyIndexedNotes(core);
      await core.client.addDocument({ kb_id: 'k', doc_id: 'n1', content: note(101) });
      const runs = upkeepRuns(core.ctx).length;
      const first = maintainIndexes(core.ctx, 'k');
      // A timer-started upkeep takes the lock after the first one let it go, while its build runs.
      const second = maintainIndexes(core.ctx, 'k');
      await core.ctx.store.writes.run('k', async () => expect(table.ftsRebuilding).toBe(true));
      await first;
      await second;
      expect(upkeepRuns(core.ctx).length - runs).toBe(1);
      expect(table.needsUpkeep).toBe(false);
      const snap = await table.snapshot();
      expect([snap.scoresExact, snap.lexicalBounded]).toEqual([true, true]);
      // A write after the build read the table still brings a build of its own.
      await core.client.addDocument({ kb_id: 'k', doc_id: 'n2', content: note(102) });
      const third = maintainIndexes(core.ctx, 'k');
      await core.ctx.store.writes.run('k', async () => expect(table.ftsRebuilding).toBe(true));
      await core.client.addDocument({ kb_id: 'k', doc_id: 'n3', content: note(103) });
      await Promise.all([third, maintainIndexes(core.ctx, 'k')]);
      expect(upkeepRuns(core.ctx).length - runs).toBe(3);
      expect(await table.unindexedRows()).toBe(0);
      expect((await table.snapshot()).scoresExact).toBe(true);
    } finally {
      await core.close();
    }
  });
});

describe('upkeep renews a chunk table’s connection once its caches pass CoreOptions.renewCacheBytes', () => {
  it('after the run, with the indexes the run built; under the bound it keeps the connection', async () => {
    for (const [renewCacheBytes, renewed] of [
      [DEFAULT_OPTIONS.renewCacheBytes, 0],
      [0, 1],
    ] as const) {
      const core = await openTestCore({ renewCacheBytes });
      try {
        const table = await twentyIndexedNotes(core);
        const before = table.renewals;
        await core.client.addDocument({ kb_id: 'k', doc_id: 'n1', content: note(101) });
        await maintainIndexes(core.ctx, 'k');
        expect(table.renewals - before).toBe(renewed);
        expect(table.cacheBytes).toBeGreaterThan(0);
        // Nothing left to do: a run that did no work renews nothing.
        await maintainIndexes(core.ctx, 'k');
        expect(table.renewals - before).toBe(renewed);
        for (const lot of [101, 5])
          expect((await core.client.search({ query: `lot${lot}`, kb_ids: ['k'], mode: 'fts', top_k: 3 })).hits.map((h) => h.text)).toEqual([
            note(lot),
          ]);
      } finally {
        await core.close();
      }
    }
  });
});

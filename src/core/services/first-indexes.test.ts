import * as lancedb from '@lancedb/lancedb';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Core } from '../core.js';
import { chunkTableName, plainChunkRow } from '../store/chunk-rows.js';
import { fixtureModels, openTestCore, seededVectors, tempDir } from '../test-support.js';
import { bulkWriting, maintainIndexes, upkeepRuns } from './indexing.js';
import type * as policy from './upkeep-policy.js';
import { compactFirst } from './upkeep-policy.js';

// Past the bound on compacting first (64 MiB of vectors, >131k rows) only in a bench: the policy's answer is taken
// from the real function, or forced where a test says so. The bound itself is tested in upkeep-policy.test.ts.
vi.mock('./upkeep-policy.js', async (importOriginal) => {
  const real = await importOriginal<typeof policy>();
  return { ...real, compactFirst: vi.fn(real.compactFirst) };
});

/** KB `k` (model `model`) with a note and then `batches` fragments of 1,000 rows written before any index. */
async function unindexedKb(model: string, batches: number, dataDir?: string) {
  // What the one-shot CLI does: no inline index on the first write, so a job's batches wait for the end's upkeep.
  const core = await openTestCore({ inlineIndexRows: 0, ...(dataDir ? { dataDir } : {}) });
  await core.client.createKb({ kb_id: 'k', embedding_model: model });
  // A job writes the KB (never ended here): the upkeep the note's write arms waits for it, instead of indexing the
  // rows written so far while the batches go on (a run under load: its timer fired after 5,001 rows).
  bulkWriting(core.ctx, 'k');
  await core.client.addDocument({ kb_id: 'k', doc_id: 'port', content: 'Customs duties are paid on imported goods at the port.' });
  const table = (await core.ctx.store.chunks('k'))!;
  const { unit } = seededVectors(Math.max(table.dim, 1), 5);
  for (let b = 0; b < batches; b++) {
    await table.add(
      Array.from({ length: 1_000 }, (_, i) => {
        const text = `filler ${b}-${i} crate`;
        return plainChunkRow({
          chunk_id: `f${b}-${i}#0`,
          doc_id: `f${b}-${i}`,
          chunk_index: 0,
          text,
          fts: text,
          ...(table.dim > 0 ? { vector: unit() } : {}),
        });
      }),
    );
  }
  return { core, table };
}

describe('a table’s first indexes: the rows written before them compacted first, unless the ANN build would hold them all', () => {
  it('past the bound, a KB with vectors: the fragments stay as written (an ANN build over one would hold all its vectors)', async () => {
    const { model } = await fixtureModels();
    const { core, table } = await unindexedKb(model, 6);
    try {
      expect(await table.fragments()).toBe(7);
      vi.mocked(compactFirst).mockReturnValueOnce(false);
      await maintainIndexes(core.ctx, 'k');
      expect(vi.mocked(compactFirst)).toHaveBeenLastCalledWith(table, 6_001, true);
      expect(await table.fragments()).toBe(7);
      expect(upkeepRuns(core.ctx).at(-1)).toMatchObject({ kb_id: 'k', compacted: false });
      expect(table.ftsIndexReady).toBe(true);
      expect(table.vectorIndexReady).toBe(true);
      expect(await table.unindexedVectors()).toBe(0);
      expect(await table.unindexedRows()).toBe(0);
      const res = await core.client.search({ kb_ids: ['k'], query: 'customs duties port', mode: 'hybrid', top_k: 1 });
      expect(res.hits[0]?.doc_id).toBe('port');
    } finally {
      await core.close();
    }
  }, 60_000);

  it('a full-text only KB at any size: asked as one without vectors, compacted before the build', async () => {
    const { core, table } = await unindexedKb('none', 3);
    try {
      expect(await table.fragments()).toBe(4);
      await maintainIndexes(core.ctx, 'k');
      expect(vi.mocked(compactFirst)).toHaveBeenLastCalledWith(table, 3_001, false);
      expect(await table.fragments()).toBe(1);
      expect(table.ftsIndexReady).toBe(true);
      expect(await table.unindexedRows()).toBe(0);
      const res = await core.client.search({ kb_ids: ['k'], query: 'customs duties', mode: 'fts', top_k: 1 });
      expect(res.hits[0]?.doc_id).toBe('port');
    } finally {
      await core.close();
    }
  }, 60_000);
});

describe('closing the engine prunes a settled table’s old versions (ChunkTable.pruneSettled)', () => {
  /** The versions LanceDB keeps of KB `k`'s chunk table in `dataDir` (a connection of its own, reading only). */
  async function versionsOnDisk(dataDir: string): Promise<number> {
    const db = await lancedb.connect(path.join(dataDir, 'lance'));
    try {
      return (await (await db.openTable(chunkTableName('k'))).listVersions()).length;
    } finally {
      db.close();
    }
  }

  it('the rows as written before the first compaction go; the table reopens with every row found', async () => {
    const dataDir = tempDir('ragdesk-prune-');
    const { core, table } = await unindexedKb('none', 3, dataDir);
    await maintainIndexes(core.ctx, 'k');
    expect(await table.fragments()).toBe(1);
    expect(await table.count()).toBe(3_001);
    // Upkeep kept the versions a search may still read, and with them the fragments as written.
    expect(await versionsOnDisk(dataDir)).toBeGreaterThan(1);
    await core.close();
    expect(await versionsOnDisk(dataDir)).toBe(1);
    const again = await Core.open({ dataDir, allowDownload: false });
    try {
      expect(await (await again.ctx.store.chunks('k'))!.count()).toBe(3_001);
      const res = await again.client.search({ kb_ids: ['k'], query: 'customs duties', mode: 'fts', top_k: 1 });
      expect(res.hits[0]?.doc_id).toBe('port');
    } finally {
      await again.close();
    }
  }, 60_000);

  it('a table with rows outside its indexes or in several fragments keeps them (optimize() would compact or fold)', async () => {
    const dataDir = tempDir('ragdesk-prune-');
    const { core, table } = await unindexedKb('none', 2, dataDir);
    await maintainIndexes(core.ctx, 'k');
    await table.add([plainChunkRow({ chunk_id: 'late#0', doc_id: 'late', chunk_index: 0, text: 'late crate', fts: 'late crate' })]);
    expect(await table.fragments()).toBe(2);
    expect(await table.pruneSettled()).toBe(0);
    await core.close();
    // Nothing brought upkeep for the late row (written past the services): close left the table as it was.
    expect(await versionsOnDisk(dataDir)).toBeGreaterThan(1);
    const db = await lancedb.connect(path.join(dataDir, 'lance'));
    try {
      expect(await (await db.openTable(chunkTableName('k'))).countRows()).toBe(2_002);
    } finally {
      db.close();
    }
  }, 60_000);
});

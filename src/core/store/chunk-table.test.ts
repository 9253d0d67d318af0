import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from '@lancedb/lancedb';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChunkRow } from './chunk-rows.js';
import { ChunkTable } from './chunk-table.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function row(docId: string, i: number, text: string): ChunkRow {
  const now = new Date().toISOString();
  return {
    chunk_id: `${docId}#${i}`,
    doc_id: docId,
    version: 'v1',
    chunk_index: i,
    text,
    fts: text,
    vector: null,
    title: docId,
    source: 'test',
    parser: 'text',
    page: null,
    heading_path: null,
    line_start: null,
    line_end: null,
    char_start: 0,
    char_end: text.length,
    tokens: 3,
    metadata: '{}',
    created_at: now,
    updated_at: now,
    meta: {},
  };
}

describe('ChunkTable snapshots and upkeep', () => {
  it('keeps the files of every open snapshot when upkeep compacts and prunes old versions', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-chunk-table-'));
    dirs.push(dir);
    const db = await connect(dir);
    const table = await ChunkTable.create(db, 'chunks__t', 0);
    for (let d = 0; d < 6; d++) await table.add([row(`doc${d}`, 0, `fjord harbour note number ${d}`)]);
    await table.ensureFtsIndex();
    // A search pins this version and is still reading when later writes and two upkeep passes run.
    const early = await table.snapshot();
    for (let round = 0; round < 2; round++) {
      for (let d = 0; d < 4; d++) await table.writeDocs([row(`doc${d}`, 1, `fjord revised ${round} ${d}`)], [`doc${d}`]);
      await table.snapshot();
      await table.optimize();
    }
    const part = await early.lexicalPart(['fjord'], 10);
    const hits = await early.hydrate(part.candidates.map((c) => ({ chunk_id: c.chunk_id, score: 1 })));
    expect(hits.map((h) => h.text).sort()).toEqual([0, 1, 2, 3, 4, 5].map((d) => `fjord harbour note number ${d}`));
    table.closeSnapshots();
  });
});

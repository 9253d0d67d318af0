import fs from 'node:fs';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { GROUP_CHUNKS } from '../../core/jobs/runner.js';
import { annIndexConfig, annIndexKind } from '../../core/store/ann-params.js';
import { buildFts } from '../../core/store/fts-index.js';
import { DOCUMENTS_TABLE } from '../../core/store/documents-repo.js';
import { configureLance } from '../../core/store/lance-runtime.js';
import { round, secondsOf } from './stats.js';

/** The raw LanceDB calls under an `add`, timed on the rows that `add` wrote. */
export interface RawWrite {
  chunks: number;
  documents: number;
  /** `table.add` calls for the chunks (one per batch of the job's size), each with the batch's document rows. */
  commits: number;
  write_s: number;
  /** The indexes the `add` left on its chunk table, built again (full-text; IVF-RQ when it built one), at once. */
  index_s: number;
  indexes: string[];
  seconds: number;
}

/**
 * What LanceDB alone takes for what one `ragdesk add` stored (issue 10: a ratio against the call underneath): the
 * chunk rows and document rows in `dataDir` read back into memory, then written into a fresh database under
 * `scratch` with plain `table.add`, in as many commits as the job's batches (GROUP_CHUNKS chunks each), and the
 * same indexes built with the same options. Not in it: parsing, chunking, analysis, embedding, the journal and the
 * crash markers, compaction: what ragdesk does above the store.
 */
export async function rawWrite(dataDir: string, scratch: string): Promise<RawWrite> {
  // ragdesk's LanceDB settings, before this process's first connect: without them a full-text build on 2 cores
  // deadlocks (lance-runtime.ts), and with them both sides build the index the same way.
  configureLance();
  const source = await lancedb.connect(path.join(dataDir, 'lance'));
  const names = await source.tableNames();
  const chunkName = names.find((n) => n.startsWith('chunks__'));
  if (!chunkName) throw new Error(`no chunk table in ${dataDir}`);
  const chunkTable = await source.openTable(chunkName);
  const chunks = await chunkTable.query().toArrow();
  const docs = await (await source.openTable(DOCUMENTS_TABLE)).query().toArrow();
  const vectorIndex = (await chunkTable.listIndices()).find((i) => annIndexKind(i.indexType) && i.columns.includes('vector'));
  source.close();

  fs.rmSync(scratch, { recursive: true, force: true });
  const db = await lancedb.connect(scratch);
  try {
    const target = await db.createEmptyTable('chunks', chunks.schema);
    const documents = await db.createEmptyTable('documents', docs.schema);
    const commits = Math.max(1, Math.ceil(chunks.numRows / GROUP_CHUNKS));
    const docsPer = Math.ceil(docs.numRows / commits);
    const write_s = await secondsOf(async () => {
      for (let b = 0; b < commits; b++) {
        await target.add(chunks.slice(b * GROUP_CHUNKS, (b + 1) * GROUP_CHUNKS));
        const part = docs.slice(b * docsPer, (b + 1) * docsPer);
        if (part.numRows) await documents.add(part);
      }
    });
    const indexes = ['fts', ...(vectorIndex ? ['ivf_rq'] : [])];
    const index_s = await secondsOf(() =>
      Promise.all([buildFts(target), vectorIndex ? target.createIndex('vector', { config: annIndexConfig(chunks.numRows) }) : undefined]),
    );
    return {
      chunks: chunks.numRows,
      documents: docs.numRows,
      commits,
      write_s: round(write_s, 2),
      index_s: round(index_s, 2),
      indexes,
      seconds: round(write_s + index_s, 2),
    };
  } finally {
    db.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

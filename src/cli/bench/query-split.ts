import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../../core/core.js';
import { search } from '../../core/search/search-service.js';
import type { SearchMode, SearchResult } from '../../shared/contract/index.js';
import { timed, type Series } from './query-mcp.js';

/**
 * The query bench's corpus split over two KBs (every other file in each), searched as one (`kb_ids` both, what
 * `search_all_accessible_kbs` does): what searching several KBs costs against the one KB, and whether it ranks as
 * the one KB does. Full-text scores over several KBs use their summed statistics (search/lexical-rank.ts), so fts
 * should give the one KB's hits; vector and hybrid read each KB's own ANN index, which may differ at the margin.
 */

export const SPLIT_KBS = ['sci-a', 'sci-b'];
export const SPLIT_MODES: SearchMode[] = ['fts', 'vector', 'hybrid'];

/** What a hit is across KBs: its document and chunk (kb ids differ between the split and the one KB). */
export type HitKeys = Map<string, string[]>;
export const hitKey = (mode: SearchMode, query: string) => `${mode}\u0000${query}`;
/** A search's hits by document and chunk, in order: what is compared between the split and the one KB. */
export const hitIds = (res: SearchResult): string[] => res.hits.map((h) => `${h.doc_id}#${h.chunk_index}`);

/** The files to add, split in two by alternating them (sorted by name), copied into two folders. */
export function splitFiles(addPaths: string[], work: string): [string, string] {
  const dirs: [string, string] = [path.join(work, 'query-split-a'), path.join(work, 'query-split-b')];
  for (const d of dirs) fs.mkdirSync(d, { recursive: true });
  const files = addPaths.flatMap((p) =>
    fs.statSync(p).isDirectory()
      ? fs
          .readdirSync(p)
          .sort()
          .map((f) => path.join(p, f))
          .filter((f) => fs.statSync(f).isFile())
      : [p],
  );
  files.forEach((f, i) => {
    const to = path.join(dirs[i % 2]!, path.basename(f));
    if (!fs.existsSync(to)) fs.copyFileSync(f, to);
  });
  return dirs;
}

export interface SplitFigures {
  series: Series;
  /** Per mode: queries whose hits (document, chunk, order) equal the one KB's. */
  same: Record<string, number>;
  queries: number;
}

/** Search the split KBs of `dataDir` with every query in every mode, interleaved, and compare with the one KB's hits. */
export async function splitPhase(dataDir: string, queries: string[], oneKb: HitKeys): Promise<SplitFigures> {
  const core = await Core.open({ dataDir, allowDownload: false, waitForModels: true });
  const series: Series = {};
  const same: Record<string, number> = Object.fromEntries(SPLIT_MODES.map((m) => [m, 0]));
  try {
    for (const q of queries)
      for (const mode of SPLIT_MODES) {
        const res = await timed(series, splitSeries(mode), () =>
          search(core.ctx, { query: q, kb_ids: SPLIT_KBS, mode, top_k: 10, use_rerank: false }),
        );
        if (hitIds(res).join() === oneKb.get(hitKey(mode, q))?.join()) same[mode]!++;
      }
  } finally {
    await core.close();
  }
  return { series, same, queries: queries.length };
}

export const splitSeries = (mode: SearchMode) => `core ${mode} 10, 2 KBs`;

import type { Kb } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { addStats, bm25, emptyStats, type LexStats } from '../store/bm25.js';
import type { ChunkRef } from '../store/chunk-table.js';
import type { LexicalPart } from '../store/lexical-index.js';

/** A ranked chunk of one KB. */
export interface KbRef extends ChunkRef {
  kb: Kb;
}

/** A unique key for a chunk across KBs (chunk ids are unique within a KB only). */
export const refKey = (r: KbRef): string => `${r.kb.kb_id}\u0000${r.chunk_id}`;

/** The statistics of the parts' tables together (they hold disjoint rows): what a ranking over them scores under. */
export function summedStats(parts: readonly LexicalPart[]): LexStats {
  return parts.reduce((acc, p) => addStats(acc, p.stats), emptyStats());
}

/**
 * One full-text ranking over one or several KBs, as if their chunks were one collection: BM25 with the summed
 * statistics of every KB searched (global statistics), so a score means the same whichever KB a chunk is in and
 * a collection split over KBs ranks as it does in one (measured with `ragdesk eval --split-kbs`). With one KB it
 * is that KB's exact BM25, the ranking of a freshly built index (see store/lexical-index.ts).
 */
export function rankLexical(parts: Array<{ kb: Kb; part: LexicalPart }>, depth: number): KbRef[] {
  const only = parts.length === 1 ? parts[0]! : undefined;
  if (parts.some((p) => p.part.scored) && !only)
    throw new RagError('internal', 'a full-text ranking taken as LanceDB scored it spans one KB only');
  // One KB whose index scored exactly (lexical-index.ts `part`): its ranking, best first, as it came.
  if (only?.part.scored)
    return only.part.scored
      .filter((c) => c.score > 0)
      .sort((a, b) => b.score - a.score || a.chunk_id.localeCompare(b.chunk_id))
      .slice(0, depth)
      .map((c) => Object.assign({}, c, { kb: only.kb })); // one hidden class for all (search-service.ts)
  const stats = summedStats(parts.map((p) => p.part));
  const out: KbRef[] = [];
  const seen = new Set<string>();
  for (const { kb, part } of parts) {
    for (const c of part.candidates) {
      const key = `${kb.kb_id}\u0000${c.chunk_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const ref: KbRef = { kb, chunk_id: c.chunk_id, doc_id: c.doc_id, chunk_index: c.chunk_index, score: bm25(c.tf, c.dl, stats) };
      if (c.rowid !== undefined) ref.rowid = c.rowid;
      if (c.row) ref.row = c.row;
      out.push(ref);
    }
  }
  // Ties broken by key so that the order does not depend on which part a row came from.
  return out
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.kb.kb_id.localeCompare(b.kb.kb_id) || a.chunk_id.localeCompare(b.chunk_id))
    .slice(0, depth);
}

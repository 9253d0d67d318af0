/**
 * Whether each document of a batch is written, skipped (unchanged, or a duplicate of stored content) or refused (its
 * doc_id taken and no overwrite), against what the KB stores now: taken before a batch is embedded, and again under
 * the KB's write lock when a write since touched one of its doc_ids or contents (services/ingest.ts commitDocuments).
 */
import type { AddResult, Kb } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { DocChangeSet } from '../store/doc-changes.js';
import type { CoreContext } from './context.js';
import type { PreparedDoc } from './ingest.js';

/** A document of a batch that is to be written (its index in the batch, and the decision). */
export interface Pending {
  i: number;
  doc: PreparedDoc;
  decision: Extract<Decision, { kind: 'write' }>;
}

/** A write: `existing` when it replaces a stored document, whose `created_at` it keeps and whose `version` it retires. */
export type Decision = { kind: 'write'; existing: boolean; created_at?: string; version?: string } | { kind: 'skip'; result: AddResult };

interface Known {
  existing: Map<string, { content_hash: string; chunk_count: number; created_at: string; version: string }>;
  hashes: Map<string, string>;
}

function decide(kb: Kb, doc: PreparedDoc, known: Known, seen: Map<string, string>): Decision {
  const existing = known.existing.get(doc.doc_id);
  const skip = (reason: string, duplicateOf?: string, chunkCount = 0): Decision => ({
    kind: 'skip',
    result: {
      kb_id: kb.kb_id,
      doc_id: doc.doc_id,
      status: 'skipped',
      chunk_count: chunkCount,
      skipped_reason: reason,
      ...(duplicateOf ? { duplicate_of: duplicateOf } : {}),
      parser: doc.parsed.parser,
      embedded: false,
    },
  });
  if (existing && existing.content_hash === doc.hash)
    return skip('unchanged: the same content is already stored', undefined, existing.chunk_count);
  if (existing && !doc.overwrite) {
    throw new RagError(
      'document_already_exists',
      `document "${doc.doc_id}" already exists in "${kb.kb_id}" (set overwrite to replace it)`,
      {
        details: { kb_id: kb.kb_id, doc_id: doc.doc_id },
      },
    );
  }
  const dup = seen.get(doc.hash) ?? known.hashes.get(doc.hash);
  if (dup && dup !== doc.doc_id) return skip(`duplicate: the same content is stored as "${dup}"`, dup);
  return {
    kind: 'write',
    existing: Boolean(existing),
    ...(existing ? { created_at: existing.created_at, version: existing.version } : {}),
  };
}

/** Per document of a batch: decide, against what is stored now, whether to write, skip or refuse it. */
export async function decideAll(
  ctx: CoreContext,
  kb: Kb,
  items: Array<{ i: number; doc: PreparedDoc }>,
  results: Array<AddResult | RagError>,
): Promise<Pending[]> {
  const kbId = kb.kb_id;
  const seen = new Map<string, string>();
  // One query for the whole batch: which doc_ids exist, which contents are already stored.
  const known: Known = await ctx.store.docs.known(
    kbId,
    [...new Set(items.map((d) => d.doc.doc_id))],
    [...new Set(items.map((d) => d.doc.hash))],
  );
  const toWrite: Pending[] = [];
  for (const { i, doc } of items) {
    try {
      const decision = decide(kb, doc, known, seen);
      if (decision.kind === 'skip') {
        results[i] = decision.result;
        ctx.events.emit('ingest', { kb_id: kbId, doc_id: doc.doc_id, stage: 'skipped', message: decision.result.skipped_reason });
        continue;
      }
      seen.set(doc.hash, doc.doc_id);
      toWrite.push({ i, doc, decision });
    } catch (err) {
      results[i] = err instanceof RagError ? err : new RagError('internal', String(err), { cause: err });
    }
  }
  return toWrite;
}

/** Whether decisions to write these documents hold after `changes` (undefined: not known, so they do not). */
export function stillDecided(changes: DocChangeSet | undefined, items: ReadonlyArray<{ doc: PreparedDoc }>): boolean {
  return changes !== undefined && items.every(({ doc }) => !changes.docIds.has(doc.doc_id) && !changes.hashes.has(doc.hash));
}

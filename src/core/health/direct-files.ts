import type { AddResult } from '../../shared/contract/index.js';
import { toErrorEnvelope } from '../../shared/errors.js';
import type { ParsedDocument } from '../parse/types.js';
import type { CoreContext } from '../services/context.js';
import { coveredScripts, verdictForError, verdictForParsed } from './classify.js';
import type { HealthStore } from './health-store.js';
import type { FileRecord } from './ledger.js';

/** What happened to one file added on its own (uploaded, dropped into the UI, added by path through the API). */
export interface DirectOutcome {
  kb_id: string;
  /** The ledger key: the absolute path of a file added by path, the name given for an upload. */
  file: string;
  doc_id: string;
  bytes: number;
  file_hash: string | null;
  mtime_ms?: number;
  /** The parsed file, when parsing got that far. */
  parsed?: ParsedDocument;
  result?: AddResult;
  error?: unknown;
}

export type DirectRecorder = (outcome: DirectOutcome) => void;

/**
 * Record files added one at a time in the KB's health report, next to those of `ragdesk add` (the `_files`
 * ledger, no source): the same statuses and messages as a job gives them (jobs/runner.ts settleResult).
 */
export function directFileRecorder(health: HealthStore, ctx: CoreContext): DirectRecorder {
  return (o) => {
    const kb = ctx.store.registry.find(o.kb_id);
    if (!kb) return;
    const base = {
      file: o.file,
      source_id: null,
      doc_id: o.doc_id,
      bytes: o.bytes,
      mtime_ms: o.mtime_ms ?? 0,
      file_hash: o.file_hash,
      checked_at: new Date().toISOString(),
      ...(o.parsed ? { parser: o.parsed.parser } : {}),
    };
    const verdict = o.parsed ? verdictForParsed(o.parsed, coveredScripts(kb, ctx.models.presets()), kb.embedding_model) : undefined;
    const facts = {
      ...(verdict?.encoding ? { encoding: verdict.encoding } : {}),
      ...(verdict?.encoding_confidence !== undefined ? { encoding_confidence: verdict.encoding_confidence } : {}),
      ...(verdict?.script ? { script: verdict.script } : {}),
    };
    let record: FileRecord;
    const r = o.result;
    if (!r) {
      // Nothing to index (a scan without text, an empty file) is left out on purpose; anything else failed.
      const v =
        verdict && (verdict.status === 'empty' || verdict.status === 'no_text_layer') ? verdict : verdictForError(toErrorEnvelope(o.error));
      record = { ...base, ...facts, status: v.status, message: v.message, indexed: false };
    } else if (r.status === 'skipped' && r.duplicate_of) {
      const message = `duplicate: the same content is already stored as "${r.duplicate_of}"`;
      record = { ...base, ...facts, status: 'duplicate', duplicate_of: r.duplicate_of, message, indexed: false };
    } else if (r.status === 'skipped') {
      const fine = !verdict || verdict.status === 'ok';
      const message = fine ? 'unchanged: the same content is already indexed' : verdict.message;
      record = { ...base, ...facts, status: fine ? 'unchanged' : verdict.status, message, indexed: true, chunks: r.chunk_count };
    } else {
      const noVectors = r.embedded ? '' : '; stored without vectors (the embedding model is not available): full-text search only';
      const status = verdict?.status ?? 'ok';
      const message = `${verdict?.message ?? 'indexed'}${noVectors}`;
      record = { ...base, ...facts, status, message, indexed: true, chunks: r.chunk_count };
    }
    const ledger = health.ledger(o.kb_id, null);
    ledger.set(record);
    ledger.save();
  };
}

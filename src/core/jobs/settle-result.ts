import type { AddResult } from '../../shared/contract/index.js';
import { RagError, type ErrorEnvelope } from '../../shared/errors.js';
import { verdictForError } from '../health/classify.js';
import { intern } from '../util/intern.js';
import type { Pending } from './examine.js';
import type { ItemLine } from './journal.js';

type Settled = Omit<ItemLine, 't' | 'i'>;

/*
 * Records are kept for every file of a job (the ledger, the journal's lines), so they are built with
 * Object.assign({}, …): on Node 20 a literal that spreads an object and then adds keys (`{ ...facts, status }`)
 * gets a hidden class of its own per object (~300 bytes each, 50,000 files: ~30 MB of the heap), while keys
 * added to an empty object in one order share one.
 */

/** The ledger line of a file that could not be indexed (its previous version, if any, stays). */
export function failed(base: Pending['base'], error: ErrorEnvelope, existed: boolean): Settled {
  const v = verdictForError(error);
  return {
    outcome: 'failed',
    chunks: 0,
    error,
    record: Object.assign({}, base, v, {
      indexed: existed,
      message: existed ? `${v.message} (the previous version stays indexed)` : v.message,
    }),
  };
}

/** The ledger entry for one written (or skipped) document. */
export function settleResult(
  p: Pick<Pending, 'base' | 'verdict' | 'existed'>,
  r: AddResult | RagError | undefined,
  mirror: boolean,
): { line: Omit<ItemLine, 't' | 'i'>; stale: boolean } {
  if (!r || r instanceof RagError) {
    const env = r ? r.toEnvelope() : { code: 'internal' as const, message: 'no result' };
    return { line: failed({ ...p.base }, env, p.existed), stale: false };
  }
  const common = {
    ...p.base,
    parser: intern(r.parser),
    encoding: p.verdict.encoding === undefined ? undefined : intern(p.verdict.encoding),
    encoding_confidence: p.verdict.encoding_confidence,
    script: p.verdict.script,
    ocr_pages: p.verdict.ocr_pages,
    ocr_confidence: p.verdict.ocr_confidence,
  };
  const facts = Object.fromEntries(Object.entries(common).filter(([, v]) => v !== undefined)) as typeof common;
  if (r.status === 'skipped' && r.duplicate_of) {
    const message = `duplicate: the same content is already stored as "${r.duplicate_of}"`;
    return {
      line: {
        outcome: 'skipped',
        chunks: 0,
        record: Object.assign({}, facts, { status: 'duplicate' as const, duplicate_of: r.duplicate_of, message, indexed: false }),
      },
      stale: mirror && p.existed,
    };
  }
  const noVectors =
    r.embedded || r.status === 'skipped' ? '' : '; stored without vectors (the embedding model is not available): full-text search only';
  if (r.status === 'skipped') {
    const fine = p.verdict.status === 'ok';
    const record = Object.assign({}, facts, {
      status: fine ? ('unchanged' as const) : p.verdict.status,
      message: fine ? 'unchanged: the same content is already indexed' : p.verdict.message,
      indexed: true,
      chunks: r.chunk_count,
    });
    return { line: { outcome: 'unchanged', chunks: 0, record }, stale: false };
  }
  const record = Object.assign({}, facts, {
    status: p.verdict.status,
    message: `${p.verdict.message}${noVectors}`,
    indexed: true,
    chunks: r.chunk_count,
  });
  return { line: { outcome: r.status, chunks: r.chunk_count, record }, stale: false };
}

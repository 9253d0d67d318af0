import path from 'node:path';
import { toErrorEnvelope } from '../../shared/errors.js';
import { verdictForParsed, type Verdict } from '../health/classify.js';
import type { FileRecord } from '../health/ledger.js';
import { resolveChunking } from '../services/ingest.js';
import { streamFile } from '../services/stream-ingest.js';
import { sha256File } from '../util/hash.js';
import { joinRel } from '../util/inside.js';
import type { Examined, ExamineEnv, Pending } from './examine.js';
import { failed, settleResult } from './settle-result.js';
import type { JobItem } from './journal.js';

/**
 * A large text or Markdown file of a job: written section by section by streamFile (its own commits, published when
 * whole), and settled here; `unchanged` when its bytes match the ledger's record, as for any file.
 */
export async function examineStreamed(
  env: ExamineEnv,
  item: JobItem,
  prev: FileRecord | undefined,
  base: Pending['base'],
  existed: boolean,
  format: 'markdown' | 'text',
  stillValid: (prev: FileRecord) => boolean,
): Promise<Examined> {
  const { ctx, kb, options } = env;
  try {
    base.file_hash = await sha256File(item.file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { vanished: true };
    return { settled: failed(base, toErrorEnvelope(err), existed) };
  }
  if (!options.force && prev && prev.file_hash === base.file_hash && prev.doc_id === item.doc_id && stillValid(prev)) {
    return { settled: { outcome: 'unchanged', chunks: 0, record: Object.assign({}, prev, base) } };
  }
  let verdict: Verdict = { status: 'ok', message: 'indexed' };
  try {
    const { content_hash, ...result } = await streamFile(ctx, kb.kb_id, {
      path: item.file,
      format,
      doc_id: item.doc_id,
      source: item.source,
      chunking: resolveChunking(kb, options.chunking),
      overwrite: options.overwrite,
      fallbackTitle: path.basename(item.file),
      file: options.within ? joinRel(options.within, item.key) : item.file,
      ...(env.signal ? { signal: env.signal } : {}),
      onProgress: (p) => env.onStream?.(item, p),
      onFirstSection: (parsed) => (verdict = verdictForParsed(parsed, env.covered, kb.embedding_model)),
    });
    // The same ledger entry as for a file written in a batch (the runner applies `stale` only to folder syncs).
    const { line, stale } = settleResult({ base, verdict, existed }, result, true);
    if (line.record?.indexed) env.docs.set(item.doc_id, content_hash);
    return { settled: line, stale };
  } catch (err) {
    if (env.signal?.aborted) return { interrupted: true };
    return { settled: failed(base, toErrorEnvelope(err), existed) };
  } finally {
    env.onStream?.(item, null);
  }
}

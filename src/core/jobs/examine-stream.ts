import path from 'node:path';
import { toErrorEnvelope } from '../../shared/errors.js';
import { verdictForParsed, type Verdict } from '../health/classify.js';
import type { FileRecord } from '../health/ledger.js';
import { resolveChunking } from '../services/ingest.js';
import { streamFile } from '../services/stream-ingest.js';
import { sha256File } from '../util/hash.js';
import { joinRel } from '../util/inside.js';
import type { Examined, ExamineEnv, Pending, failed as Failed } from './examine.js';
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
  how: { stillValid: (prev: FileRecord) => boolean; failed: typeof Failed },
): Promise<Examined> {
  const { stillValid, failed } = how;
  const { ctx, kb, options } = env;
  try {
    base.file_hash = await sha256File(item.file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { vanished: true };
    return { settled: failed(base, toErrorEnvelope(err), existed) };
  }
  if (!options.force && prev && prev.file_hash === base.file_hash && prev.doc_id === item.doc_id && stillValid(prev)) {
    return { settled: { outcome: 'unchanged', chunks: 0, record: { ...prev, ...base } } };
  }
  let verdict: Verdict | undefined;
  try {
    const r = await streamFile(ctx, kb.kb_id, {
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
    const facts = Object.fromEntries(
      Object.entries({
        ...base,
        parser: format,
        encoding: verdict?.encoding,
        encoding_confidence: verdict?.encoding_confidence,
        script: verdict?.script,
      }).filter(([, v]) => v !== undefined),
    ) as Pending['base'] & { parser: string };
    if (r.status === 'skipped') {
      if (r.duplicate_of) {
        const message = `duplicate: the same content is already stored as "${r.duplicate_of}"`;
        return {
          settled: {
            outcome: 'skipped',
            chunks: 0,
            record: { ...facts, status: 'duplicate', duplicate_of: r.duplicate_of, message, indexed: false },
          },
          stale: existed,
        };
      }
      env.docs.set(item.doc_id, r.content_hash);
      const message = 'unchanged: the same content is already indexed';
      return {
        settled: {
          outcome: 'unchanged',
          chunks: 0,
          record: { ...facts, status: 'unchanged', message, indexed: true, chunks: r.chunk_count },
        },
      };
    }
    env.docs.set(item.doc_id, r.content_hash);
    const status = verdict?.status ?? 'ok';
    const noVectors = r.embedded ? '' : '; stored without vectors (the embedding model is not available): full-text search only';
    const message = `${verdict?.message ?? 'indexed'}${noVectors}`;
    return {
      settled: { outcome: r.status, chunks: r.chunk_count, record: { ...facts, status, message, indexed: true, chunks: r.chunk_count } },
    };
  } catch (err) {
    if (env.signal?.aborted) return { interrupted: true };
    return { settled: failed(base, toErrorEnvelope(err), existed) };
  } finally {
    env.onStream?.(item, null);
  }
}

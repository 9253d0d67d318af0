import path from 'node:path';
import type { Kb } from '../../shared/contract/index.js';
import { RagError, toErrorEnvelope, type ErrorEnvelope } from '../../shared/errors.js';
import { verdictForParsed, type Verdict } from '../health/classify.js';
import type { FileRecord } from '../health/ledger.js';
import type { CoreContext } from '../services/context.js';
import { completeWithOcr, needsOcr } from '../services/ocr-stage.js';
import type { ParsedDocument } from '../parse/types.js';
import { isCancelled } from '../ocr/engine.js';
import type { OcrProgress } from '../ocr/ocr-document.js';
import { prepareDocument, resolveChunking, type PreparedDoc } from '../services/ingest.js';
import { joinRel } from '../util/inside.js';
import { fileIo, type FileIo } from './read-ahead.js';
import type { ItemLine, JobItem, JobOptions } from './journal.js';
import { streamFormat } from '../parse/stream/stream-format.js';
import { examineStreamed } from './examine-stream.js';
import { failed } from './settle-result.js';

export { failed };

type Settled = Omit<ItemLine, 't' | 'i'>;

/** A file parsed and chunked, waiting for its batch to be embedded and written. */
export interface Pending {
  doc: PreparedDoc;
  verdict: Verdict;
  base: Omit<FileRecord, 'status' | 'message' | 'indexed'>;
  existed: boolean;
}

/**
 * What looking at a file came to: settled without writing, waiting to be written, gone, stopped half-way (OCR), or
 * (with `env.background`) still being read by OCR: `later` resolves to one of the others.
 */
export type Examined =
  { settled: Settled; stale?: boolean } | { pending: Pending } | { vanished: true } | { interrupted: true } | { later: Promise<Examined> };

export interface ExamineEnv {
  ctx: CoreContext;
  kb: Kb;
  options: JobOptions;
  sourceId: string | null;
  /** doc_id → content hash of the KB's documents, kept current by the runner. */
  docs: Map<string, string>;
  covered: 'all' | Set<string> | undefined;
  /** Stops OCR of a long scan at its next page (the job was cancelled, paused or is closing). */
  signal?: AbortSignal;
  /** OCR progress of a file, page by page. */
  onOcrPage?: (item: JobItem, p: OcrProgress) => void;
  /** Read scans by OCR in the background (`later`), so a long scan does not hold up the files after it. */
  background?: boolean;
  /** Progress of a large file written section by section: bytes read, chunks written. */
  onStream?: (item: JobItem, p: { bytes: number; total_bytes: number; chunks: number } | null) => void;
}

/** Whether the ledger's record still describes the KB, so that unchanged bytes need no work at all. */
function stillValid(prev: FileRecord, docs: Map<string, string>): boolean {
  if (prev.indexed) return prev.doc_id !== null && docs.has(prev.doc_id);
  if (prev.status === 'duplicate') return Boolean(prev.duplicate_of && docs.has(prev.duplicate_of));
  return prev.status !== 'error';
}

/**
 * Read, hash, parse and chunk one file (`io`: its steps, started ahead by read-ahead.ts or done here). Bytes identical to what the ledger recorded are not parsed again;
 * files without text are settled (and, for a synced folder, their stale document is marked for removal).
 */
export async function examine(
  env: ExamineEnv,
  item: JobItem,
  prev: FileRecord | undefined,
  io: FileIo = fileIo(env.ctx, item, env.options),
): Promise<Examined> {
  const { ctx, kb } = env;
  // A source that does not follow links reads a file only where the scan saw it: a link put there since counts as gone.
  const stat = await io.stat();
  if (!stat?.isFile()) return { vanished: true };
  const existed = env.docs.has(item.doc_id);
  const base: Pending['base'] = {
    file: item.key,
    source_id: env.sourceId,
    doc_id: item.doc_id,
    bytes: stat.size,
    mtime_ms: stat.mtimeMs,
    file_hash: null,
    checked_at: new Date().toISOString(),
  };
  // Large text and Markdown files are written section by section, in flat memory (examine-stream.ts).
  const streamed = await streamFormat(item.file, stat.size, ctx.options.streamFromBytes).catch(() => undefined);
  const limit = streamed ? ctx.options.maxStreamBytes : ctx.options.maxFileBytes;
  if (stat.size > limit) {
    const err: ErrorEnvelope = { code: 'too_large', message: `${item.file} is ${stat.size} bytes; the limit is ${limit}` };
    return { settled: failed(base, err, existed) };
  }
  if (streamed) return examineStreamed(env, item, prev, base, existed, streamed, (p) => stillValid(p, env.docs));
  let data: Buffer;
  try {
    data = await io.read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { vanished: true };
    return {
      settled: failed(base, toErrorEnvelope(new RagError('invalid_parameter', `cannot read ${item.file}: ${String(err)}`)), existed),
    };
  }
  base.file_hash = io.hash(data);
  if (!env.options.force && prev && prev.file_hash === base.file_hash && prev.doc_id === item.doc_id && stillValid(prev, env.docs)) {
    return { settled: { outcome: 'unchanged', chunks: 0, record: Object.assign({}, prev, base) } };
  }
  let parsed: ParsedDocument;
  try {
    parsed = await io.parse(data);
  } catch (err) {
    return { settled: failed(base, toErrorEnvelope(err), existed) };
  }
  if (!needsOcr(parsed)) return finish(env, item, parsed, base, existed, io);
  // Scans and images: pages read by OCR in the KB's languages, page by page in the parse pool.
  const read = async (): Promise<Examined> => {
    try {
      const full = await completeWithOcr(ctx, parsed, data, {
        kb,
        filename: item.file,
        signal: env.signal,
        onPage: env.onOcrPage ? (p) => env.onOcrPage!(item, p) : undefined,
      });
      return await finish(env, item, full, base, existed, io);
    } catch (err) {
      if (isCancelled(err)) return { interrupted: true };
      return { settled: failed(base, toErrorEnvelope(err), existed) };
    }
  };
  return env.background ? { later: read() } : read();
}

/** Judge a parsed file and chunk it (or settle it when there is nothing to index). */
async function finish(
  env: ExamineEnv,
  item: JobItem,
  parsed: ParsedDocument,
  base: Pending['base'],
  existed: boolean,
  io: FileIo,
): Promise<Examined> {
  const { ctx, kb, options } = env;
  try {
    const verdict = verdictForParsed(parsed, env.covered, kb.embedding_model);
    if (verdict.status === 'no_text_layer' || verdict.status === 'empty') {
      return {
        settled: { outcome: 'skipped', chunks: 0, record: Object.assign({}, base, verdict, { parser: parsed.parser, indexed: false }) },
        stale: existed,
      };
    }
    const doc = await prepareDocument(ctx, kb, {
      parsed,
      chunking: resolveChunking(kb, options.chunking),
      overwrite: options.overwrite,
      doc_id: item.doc_id,
      source: item.source,
      fallbackTitle: path.basename(item.file),
      // The real path read, for "Open file" (a source that does not follow links reads exactly <within>/<key>).
      file: options.within ? joinRel(options.within, item.key) : await io.realpath(),
    });
    return { pending: { doc, verdict, base, existed } };
  } catch (err) {
    return { settled: failed(base, toErrorEnvelope(err), existed) };
  }
}

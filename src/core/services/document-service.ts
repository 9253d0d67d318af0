import fs from 'node:fs/promises';
import path from 'node:path';
import {
  DocumentItemSchema,
  type AddBatchResult,
  type AddResult,
  type DocumentFull,
  type ListDocumentsResult,
  type ParsedInput,
} from '../../shared/contract/index.js';
import { RagError, toErrorEnvelope } from '../../shared/errors.js';
import { parseBytes } from '../parse/registry.js';
import type { ParsedDocument } from '../parse/types.js';
import type { DirectRecorder } from '../health/direct-files.js';
import { crashPoint } from '../store/crash-point.js';
import { sha256 } from '../util/hash.js';
import { sqlString } from '../store/sql.js';
import type { CoreContext } from './context.js';
import { scheduleIndexing } from './indexing.js';
import { commitDocuments, prepareDocument, resolveChunking, type PreparedDoc } from './ingest.js';
import { parseInput } from '../util/validate.js';
import { completeWithOcr } from './ocr-stage.js';
import { addStreamed } from './add-streamed.js';
import { streamFormat } from '../parse/stream/stream-format.js';
import type { OcrProgress } from '../ocr/ocr-document.js';

const WHOLE = { strategy: 'whole', chunk_size: 8192, chunk_overlap: 0 } as const;

function unwrap(result: AddResult | RagError | undefined): AddResult {
  if (result instanceof RagError) throw result;
  if (!result) throw new RagError('internal', 'no result');
  return result;
}

export async function parseText(content: string, format: 'text' | 'markdown' | 'html' = 'text'): Promise<ParsedDocument> {
  if (!content.trim()) throw new RagError('invalid_parameter', 'content must not be empty');
  // Text from callers is untrusted too: it is parsed in the worker pool, under the same limits as files.
  const parsed = await parseBytes({ data: Buffer.from(content, 'utf8'), parser: format });
  // Text given as a string has no byte encoding worth recording.
  const { encoding: _e, encoding_confidence: _c, ...metadata } = parsed.metadata;
  return { ...parsed, metadata };
}

async function prepareItem(ctx: CoreContext, kbId: string, raw: unknown, overwrite: boolean): Promise<PreparedDoc> {
  const item = parseInput(DocumentItemSchema, raw);
  const kb = ctx.store.registry.get(kbId);
  const parsed = await parseText(item.content, item.format);
  // Without a chunking config a text document is stored as one chunk (what an agent adding a note expects).
  const chunking = item.chunking ? resolveChunking(kb, item.chunking) : resolveChunking(kb, undefined, { ...WHOLE });
  return prepareDocument(ctx, kb, {
    parsed,
    chunking,
    overwrite,
    ...(item.doc_id ? { doc_id: item.doc_id } : {}),
    ...(item.title ? { title: item.title } : {}),
    ...(item.source ? { source: item.source } : {}),
    ...(item.metadata ? { metadata: item.metadata } : {}),
  });
}

export async function addDocument(ctx: CoreContext, input: ParsedInput<'addDocument'>): Promise<AddResult> {
  const { kb_id, overwrite, ...item } = input;
  const prepared = await prepareItem(ctx, kb_id, item, overwrite);
  return unwrap((await commitDocuments(ctx, kb_id, [prepared]))[0]);
}

export async function addDocumentsBatch(ctx: CoreContext, input: ParsedInput<'addDocumentsBatch'>): Promise<AddBatchResult> {
  ctx.store.registry.get(input.kb_id);
  const results: AddBatchResult['results'] = [];
  const prepared: Array<{ index: number; doc: PreparedDoc }> = [];
  for (const [index, item] of input.documents.entries()) {
    try {
      prepared.push({ index, doc: await prepareItem(ctx, input.kb_id, item, input.overwrite) });
    } catch (err) {
      const docId = item && typeof item === 'object' && 'doc_id' in item && typeof item.doc_id === 'string' ? item.doc_id : null;
      results[index] = { index, doc_id: docId, ok: false, error: toErrorEnvelope(err) };
    }
  }
  const committed = await commitDocuments(
    ctx,
    input.kb_id,
    prepared.map((p) => p.doc),
  );
  committed.forEach((r, i) => {
    const { index, doc } = prepared[i]!;
    results[index] =
      r instanceof RagError
        ? { index, doc_id: doc.doc_id, ok: false, error: toErrorEnvelope(r) }
        : { index, doc_id: r.doc_id, ok: true, result: r };
  });
  const count = (s: string) => results.filter((r) => r.result?.status === s).length;
  return {
    results,
    added: count('added'),
    updated: count('updated'),
    skipped: count('skipped'),
    failed: results.filter((r) => !r.ok).length,
  };
}

/** Parse bytes of a named file (size limit first), wrapping parser failures with the file name. */
export async function parseFileBytes(ctx: CoreContext, data: Uint8Array, filename: string): Promise<ParsedDocument> {
  if (data.byteLength > ctx.options.maxFileBytes) {
    throw new RagError('too_large', `${filename} is ${data.byteLength} bytes; the limit is ${ctx.options.maxFileBytes}`, {
      details: { file: filename, bytes: data.byteLength, limit: ctx.options.maxFileBytes },
    });
  }
  return parseBytes({ data, filename });
}

export interface FileItem {
  data: Uint8Array;
  filename: string;
  doc_id?: string;
  title?: string;
  source?: string;
  metadata?: Record<string, unknown>;
  chunking?: Record<string, unknown>;
  /** The real path the bytes were read from (server-side only: never from a caller's input). */
  file?: string;
}

export async function prepareFile(
  ctx: CoreContext,
  kbId: string,
  file: FileItem,
  overwrite: boolean,
  onOcrPage?: (p: OcrProgress) => void,
  onParsed?: (parsed: ParsedDocument) => void,
): Promise<PreparedDoc> {
  const kb = ctx.store.registry.get(kbId);
  // Scans and images: their pages are read by OCR, in the KB's languages.
  const parsed = await completeWithOcr(ctx, await parseFileBytes(ctx, file.data, file.filename), file.data, {
    kb,
    filename: file.filename,
    onPage: onOcrPage,
  });
  onParsed?.(parsed);
  return prepareDocument(ctx, kb, {
    parsed,
    chunking: resolveChunking(kb, file.chunking),
    overwrite,
    doc_id: file.doc_id ?? path.basename(file.filename),
    fallbackTitle: path.basename(file.filename),
    source: file.source ?? file.filename,
    ...(file.file ? { file: file.file } : {}),
    ...(file.title ? { title: file.title } : {}),
    ...(file.metadata ? { metadata: file.metadata as Record<string, never> } : {}),
  });
}

/**
 * Parse, prepare and commit one file, telling `record` (the KB's health report) what came of it, failure or not.
 */
async function ingestOne(
  ctx: CoreContext,
  kbId: string,
  file: FileItem,
  at: { key: string; overwrite: boolean; mtime_ms?: number; onOcrPage?: (p: OcrProgress) => void; record?: DirectRecorder },
): Promise<AddResult> {
  let parsed: ParsedDocument | undefined;
  const outcome = {
    kb_id: kbId,
    file: at.key,
    doc_id: file.doc_id ?? path.basename(file.filename),
    bytes: file.data.byteLength,
    file_hash: sha256(file.data),
    ...(at.mtime_ms !== undefined ? { mtime_ms: at.mtime_ms } : {}),
  };
  try {
    const prepared = await prepareFile(ctx, kbId, file, at.overwrite, at.onOcrPage, (p) => (parsed = p));
    const result = unwrap((await commitDocuments(ctx, kbId, [prepared]))[0]);
    at.record?.({ ...outcome, doc_id: prepared.doc_id, ...(parsed ? { parsed } : {}), result });
    return result;
  } catch (err) {
    at.record?.({ ...outcome, ...(parsed ? { parsed } : {}), error: err });
    throw err;
  }
}

export async function addFile(ctx: CoreContext, input: ParsedInput<'addFile'>, record?: DirectRecorder): Promise<AddResult> {
  ctx.store.registry.get(input.kb_id);
  const abs = path.resolve(input.path);
  const stat = await fs.stat(abs).catch((err: unknown) => {
    throw new RagError('invalid_parameter', `cannot read ${abs}`, { cause: err });
  });
  // Large text and Markdown files are written section by section, in flat memory (stream-ingest.ts).
  const streamed = await streamFormat(abs, stat.size, ctx.options.streamFromBytes);
  const limit = streamed ? ctx.options.maxStreamBytes : ctx.options.maxFileBytes;
  if (stat.size > limit) {
    const err = new RagError('too_large', `${abs} is ${stat.size} bytes; the limit is ${limit}`, {
      details: { file: abs },
    });
    record?.({
      kb_id: input.kb_id,
      file: abs,
      doc_id: input.doc_id ?? path.basename(abs),
      bytes: stat.size,
      file_hash: null,
      mtime_ms: stat.mtimeMs,
      error: err,
    });
    throw err;
  }
  if (streamed) return addStreamed(ctx, input, { abs, format: streamed, bytes: stat.size, mtime_ms: stat.mtimeMs }, record);
  return ingestOne(
    ctx,
    input.kb_id,
    {
      data: await fs.readFile(abs),
      filename: abs,
      source: input.source ?? abs,
      // What "Open file" may open later: the file's real path, whatever `source` the caller wrote.
      file: await fs.realpath(abs),
      ...(input.doc_id ? { doc_id: input.doc_id } : {}),
      ...(input.title ? { title: input.title } : {}),
      ...(input.metadata ? { metadata: input.metadata } : {}),
      ...(input.chunking ? { chunking: input.chunking } : {}),
    },
    { key: abs, overwrite: input.overwrite, mtime_ms: stat.mtimeMs, ...(record ? { record } : {}) },
  );
}

/** A file sent as bytes (the UI's drop zone, `/api/uploadFile`); it lands in the health report like `ragdesk add`'s files. */
export async function uploadFile(
  ctx: CoreContext,
  input: ParsedInput<'uploadFile'>,
  onOcrPage?: (p: OcrProgress) => void,
  record?: DirectRecorder,
): Promise<AddResult> {
  ctx.store.registry.get(input.kb_id);
  const data = Buffer.from(input.data_base64, 'base64');
  return ingestOne(
    ctx,
    input.kb_id,
    {
      data,
      filename: path.basename(input.filename),
      source: input.filename,
      ...(input.doc_id ? { doc_id: input.doc_id } : {}),
      ...(input.title ? { title: input.title } : {}),
      ...(input.metadata ? { metadata: input.metadata } : {}),
      ...(input.chunking ? { chunking: input.chunking } : {}),
    },
    { key: input.filename, overwrite: input.overwrite, ...(onOcrPage ? { onOcrPage } : {}), ...(record ? { record } : {}) },
  );
}

export async function getDocument(ctx: CoreContext, kbId: string, docId: string): Promise<DocumentFull> {
  ctx.store.registry.get(kbId);
  const doc = await ctx.store.docs.get(kbId, docId);
  if (!doc)
    throw new RagError('document_not_found', `document "${docId}" not found in "${kbId}"`, { details: { kb_id: kbId, doc_id: docId } });
  const { version, ...rest } = doc;
  // A large document keeps its text in a content file (content-files.ts), not in its row.
  if (rest.content === '' && rest.size > 0) rest.content = ctx.store.contents.read(kbId, docId, version) ?? '';
  return rest;
}

export async function listDocuments(ctx: CoreContext, input: ParsedInput<'listDocuments'>): Promise<ListDocumentsResult> {
  ctx.store.registry.get(input.kb_id);
  const page = await ctx.store.docs.page(input.kb_id, input.offset, input.limit, input.title_contains);
  return { total: page.total, documents: page.documents.map(({ version: _v, ...d }) => d) };
}

export async function deleteDocument(ctx: CoreContext, kbId: string, docId: string) {
  ctx.store.registry.get(kbId);
  return ctx.store
    .write(kbId, async () => {
      const doc = await ctx.store.docs.summary(kbId, docId);
      if (!doc)
        throw new RagError('document_not_found', `document "${docId}" not found in "${kbId}"`, { details: { kb_id: kbId, doc_id: docId } });
      const table = await ctx.store.chunks(kbId);
      const chunks = table ? await table.count(`doc_id = ${sqlString(docId)}`) : 0;
      await removeLocked(ctx, kbId, [docId]);
      return { kb_id: kbId, doc_id: docId, deleted: true, chunks_deleted: chunks };
    })
    .finally(() => scheduleIndexing(ctx, kbId));
}

/**
 * Delete documents (those that exist), 500 per step. Each step is one chunk-table commit (the documents vanish
 * from search at once) and then one commit of the document rows; its intent is recorded first, so a failure or
 * a crash in between puts the chunks back (store.ts): a document is never left half deleted.
 */
export async function deleteDocuments(ctx: CoreContext, kbId: string, docIds: string[]): Promise<void> {
  if (docIds.length === 0) return;
  await ctx.store.write(kbId, () => removeLocked(ctx, kbId, docIds));
  scheduleIndexing(ctx, kbId);
}

async function removeLocked(ctx: CoreContext, kbId: string, docIds: string[]): Promise<void> {
  const table = await ctx.store.chunks(kbId);
  for (let i = 0; i < docIds.length; i += 500) {
    const ids = docIds.slice(i, i + 500);
    if (!table) {
      await ctx.store.docs.deleteMany(kbId, ids);
      continue;
    }
    // Their versions name their content files (content-files.ts), if the KB has any.
    const versions = ctx.store.contents.has(kbId) ? await ctx.store.docs.summaries(kbId, ids) : new Map<string, { version: string }>();
    ctx.store.recordIntent(kbId, { kind: 'delete', table: table.name, before: await table.version(), doc_ids: ids });
    await table.deleteDocs(ids);
    crashPoint('chunks-deleted');
    await ctx.store.docs.deleteMany(kbId, ids);
    ctx.store.intentDone(kbId);
    for (const [docId, d] of versions) ctx.store.contents.removeVersion(kbId, docId, d.version);
  }
}

export async function listChunks(ctx: CoreContext, input: ParsedInput<'listChunks'>) {
  await getDocument(ctx, input.kb_id, input.doc_id);
  const table = await ctx.store.chunks(input.kb_id);
  if (!table) return { total: 0, chunks: [] };
  const { total, chunks } = await table.listChunks(input.doc_id, input.offset, input.limit);
  return {
    total,
    chunks: chunks.map((c) => ({
      chunk_index: c.chunk_index,
      text: c.text,
      characters: c.text.length,
      tokens: c.tokens,
      location: c.location,
    })),
  };
}

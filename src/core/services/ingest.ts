import type { AddResult, ChunkingConfig, ChunkingOverride, Kb, Metadata } from '../../shared/contract/index.js';
import { ChunkingConfigSchema, isFullTextOnly } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { chunkDocumentWithWarnings } from '../chunk/index.js';
import type { ChunkDraft } from '../chunk/types.js';
import type { Embedder } from '../embed/types.js';
import { embedReusing } from './vector-reuse.js';
import type { ParsedDocument } from '../parse/types.js';
import { crashPoint } from '../store/crash-point.js';
import { sha256 } from '../util/hash.js';
import type { CoreContext } from './context.js';
import { analyzeChunksOffThread } from './analysis-pool.js';
import { buildRows, contentFileTexts, newVersion } from './ingest-rows.js';
import { decideAll, stillDecided, type Pending } from './write-decision.js';
import { ensureChunkTable } from '../store/ensure-chunk-table.js';
import { markNeedsVectors } from './heal.js';
import { indexFirstWrite, scheduleIndexing } from './indexing.js';
import { joinPassageIds, passageIds, passageText, type PassageIds } from '../embed/passage.js';

/** The warning on documents written while the KB's model could not be had (vectors are filled in later). */
export const NO_VECTORS_WARNING = 'stored without vectors: the embedding model is not available; full-text search works';

/** The write's warning when it stored chunks without vectors: none for a full-text only KB, which wants none. */
export function noVectorsWarnings(kb: Kb): string[] {
  return isFullTextOnly(kb.embedding_model) ? [] : [NO_VECTORS_WARNING];
}

/** A document parsed and chunked, ready to embed and write. */
export interface PreparedDoc {
  doc_id: string;
  title: string;
  source: string;
  metadata: Metadata;
  parsed: ParsedDocument;
  chunking: ChunkingConfig;
  chunks: ChunkDraft[];
  hash: string;
  overwrite: boolean;
  warnings: string[];
  /** The real path of the file read (set by ingestion of a file, never from a caller's input): what "Open file" opens. */
  file?: string;
  /** The passages' token ids from chunking, for the embedding (embed/passage.ts). */
  passage_ids?: PassageIds;
}

export function resolveChunking(kb: Kb, override: ChunkingOverride | undefined, fallback?: ChunkingConfig): ChunkingConfig {
  const base = fallback ?? kb.chunking;
  const merged = { ...base, ...Object.fromEntries(Object.entries(override ?? {}).filter(([, v]) => v !== undefined)) };
  const parsed = ChunkingConfigSchema.safeParse(merged);
  if (!parsed.success) throw new RagError('invalid_parameter', `bad chunking: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

function defaultTitle(parsed: ParsedDocument, fallback: string | undefined): string {
  if (parsed.title?.trim()) return parsed.title.trim().slice(0, 500);
  if (fallback) return fallback;
  const firstLine =
    parsed.text
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? '';
  return firstLine.slice(0, 120);
}

export interface PrepareInput {
  parsed: ParsedDocument;
  doc_id?: string;
  title?: string;
  source?: string;
  metadata?: Metadata;
  chunking: ChunkingConfig;
  overwrite: boolean;
  /** Title when the parser found none (e.g. the file name). */
  fallbackTitle?: string;
  /** The real path of the file this document was read from (server-side only). */
  file?: string;
}

/** Chunk a parsed document with the KB's tokenizer (and embedder for the semantic strategy). */
export async function prepareDocument(ctx: CoreContext, kb: Kb, input: PrepareInput): Promise<PreparedDoc> {
  const { parsed } = input;
  if (!parsed.text.trim()) throw new RagError('invalid_parameter', 'the document has no text');
  if (parsed.text.length > ctx.options.maxTextChars) {
    throw new RagError('too_large', `the document has ${parsed.text.length} characters; the limit is ${ctx.options.maxTextChars}`);
  }
  const hash = sha256(parsed.text);
  const tokenizer = await ctx.models.getTokenCounter(kb.embedding_model);
  const embedder = input.chunking.strategy === 'semantic' ? await tryEmbedder(ctx, kb) : undefined;
  const embed = embedder ? (texts: string[]) => embedder.embedPassages(texts) : undefined;
  const { chunks, warnings } = await chunkDocumentWithWarnings(parsed, input.chunking, { tokenizer, ...(embed ? { embed } : {}) });
  const metadata: Metadata = { ...parsed.metadata, ...(input.metadata ?? {}) };
  const title = input.title?.trim() || defaultTitle(parsed, input.fallbackTitle);
  const ids = passageIds(tokenizer, title, chunks);
  return {
    doc_id: input.doc_id ?? `doc-${hash.slice(0, 16)}`,
    title,
    source: input.source ?? '',
    metadata,
    parsed,
    chunking: input.chunking,
    chunks,
    hash,
    overwrite: input.overwrite,
    warnings: [...parsed.warnings, ...warnings],
    ...(input.file ? { file: input.file } : {}),
    ...(ids ? { passage_ids: ids } : {}),
  };
}

/**
 * The KB's embedder if it can be had now (loading a cached model is fine; downloads only if allowed). A local model
 * that failed to load is tried again only after the model manager's RETRY_AFTER_FAILURE_MS: an `add` asks once per
 * batch, and each ask of a model neither on disk nor downloadable was a download attempt in the worker (17 in one
 * `add` of 20 MB, each a request to the hub when online; 1 now). Meanwhile the writes go on without vectors, which
 * heal.ts fills in once the model loads, and a model loaded meanwhile (imported, downloaded from the UI) is used at
 * once. Remote embedders keep their own circuit breaker.
 */
export async function tryEmbedder(ctx: CoreContext, kb: Kb): Promise<Embedder | undefined> {
  if (isFullTextOnly(kb.embedding_model)) return undefined;
  try {
    return await ctx.models.getEmbedder(kb.embedding_model, { allowDownload: ctx.options.allowDownload, skipRecentFailure: true });
  } catch (err) {
    if (err instanceof RagError && err.code === 'model_unavailable') return undefined;
    throw err;
  }
}

/**
 * Embed and write prepared documents to a KB. Returns one result (or error) per document, in order.
 *
 * The decision (new, replace, skip, refuse) is taken before embedding (nothing is embedded in vain) and holds
 * under the KB's write lock unless a write since touched one of the batch's doc_ids or stored one of its contents
 * (store/doc-changes.ts); then it is taken again against what is stored: of two concurrent adds of one new doc_id,
 * the second gets `document_already_exists` (or replaces the first with `overwrite`), never a second copy. Under the lock:
 * one chunk-table commit for the whole batch (new chunks in, the replaced documents' chunks out: readers see a
 * document's old version or its new one), then one commit of the document rows, which makes the write count.
 * The intent is recorded first (store.ts): a failure or a crash in between puts the chunk table back.
 */
export async function commitDocuments(ctx: CoreContext, kbId: string, docs: PreparedDoc[]): Promise<Array<AddResult | RagError>> {
  const results: Array<AddResult | RagError> = new Array(docs.length);
  // Taken before the decision's reads: what changes after this is in `changes.since` (store/doc-changes.ts).
  const decidedAt = ctx.store.docs.changes.now;
  const first = await decideAll(
    ctx,
    ctx.store.registry.get(kbId),
    docs.map((doc, i) => ({ i, doc })),
    results,
  );
  if (first.length === 0) return results;

  const embedder = await tryEmbedder(ctx, ctx.store.registry.get(kbId));
  // A job may offer vectors of documents it just deleted (a renamed file): see jobs/vector-reuse.ts.
  const embedding = embedder
    ? embedReusing(
        ctx,
        kbId,
        embedder,
        passageTexts(first.map((w) => w.doc)),
        joinPassageIds(first.map(({ doc }) => ({ ids: doc.passage_ids, count: doc.chunks.length }))),
      ).catch(unavailable)
    : undefined;
  // Awaited below; meanwhile it must not count as unhandled.
  embedding?.catch(() => undefined);
  // Large texts go to their content files now, while the chunks are embedded, not under the KB's write lock: there,
  // beside LanceDB's writes, their fsyncs held each batch of a 20 MB folder for 60-90 ms. Durable before the rows
  // that point at them; a file whose rows are not committed is removed below, and one a crash leaves is removed by
  // the sweep at the next open (Store.repairInterruptedWrites).
  const batch: Batch = {
    kbId,
    first,
    results,
    decidedAt,
    version: newVersion(),
    embedder,
    vectors: new Map(),
    fts: new Map(),
    committed: new Set(),
    rows: 0,
  };
  const filed = contentFileTexts(
    first.map((w) => w.doc),
    ctx.options.contentFileMinChars,
  );
  const filing = ctx.store.contents.putAll(kbId, batch.version, filed);
  filing.catch(() => undefined);
  try {
    // The full-text column, in the analysis worker while the embedding worker runs and the batch before is written.
    const analysis = analyzeChunksOffThread(first.map((w) => w.doc));
    // Awaited below, after the embedding, which may fail first.
    analysis.catch(() => undefined);
    if (embedder) {
      for (const w of first) ctx.events.emit('ingest', { kb_id: kbId, doc_id: w.doc.doc_id, stage: 'embed', chunks: w.doc.chunks.length });
      const flat = await embedding;
      if (flat) {
        let at = 0;
        for (const { doc } of first) {
          batch.vectors.set(doc, flat.slice(at, at + doc.chunks.length));
          at += doc.chunks.length;
        }
      } else batch.embedder = undefined;
    }
    batch.fts = await analysis;
    await filing;
    crashPoint('content-written');
    await ctx.store.write(kbId, () => writeBatch(ctx, batch));
  } finally {
    // Once no file is still being written (the embedding may have failed first).
    await filing.catch(() => undefined);
    for (const doc of filed) if (!batch.committed.has(doc.doc_id)) ctx.store.contents.removeVersion(kbId, doc.doc_id, batch.version);
  }
  scheduleIndexing(ctx, kbId, batch.rows);
  // Written without vectors: they are filled in as soon as the model can embed (heal.ts).
  if (!batch.embedder && results.some((r) => !(r instanceof RagError) && r.status !== 'skipped')) markNeedsVectors(ctx, kbId);
  return results;
}

/** A batch of commitDocuments on its way to the KB's write lock. */
interface Batch {
  kbId: string;
  /** The documents decided to be written before embedding. */
  first: Pending[];
  results: Array<AddResult | RagError>;
  decidedAt: number;
  /** The version its rows, chunk ids and content files carry. */
  version: string;
  embedder: Embedder | undefined;
  vectors: Map<PreparedDoc, Float32Array[]>;
  fts: Map<PreparedDoc, string[]>;
  /** Set under the lock: the documents whose rows were committed, and the chunk rows written. */
  committed: Set<string>;
  rows: number;
}

/**
 * Under the KB's write lock: decide again if needed, then one chunk-table commit and one commit of the document
 * rows (see commitDocuments).
 */
async function writeBatch(ctx: CoreContext, b: Batch): Promise<void> {
  const { kbId, results, version } = b;
  // Decide again if a write since stored or removed one of these doc_ids or stored one of these contents (a
  // concurrent add, the batch before in a job does not): the decisions then stand without reading them again.
  const toWrite = stillDecided(ctx.store.docs.changes.since(kbId, b.decidedAt), b.first)
    ? b.first
    : await decideAll(ctx, ctx.store.registry.get(kbId), b.first, results);
  if (toWrite.length === 0) return;
  if (b.embedder && b.embedder.model !== ctx.store.registry.get(kbId).embedding_model) await embedAgain(ctx, b, toWrite);
  const table = await ensureChunkTable(ctx.store, ctx.store.registry.get(kbId), b.embedder, ctx.models.presets());
  let kb = ctx.store.registry.get(kbId);
  const now = new Date().toISOString();
  const built = buildRows(
    kbId,
    toWrite,
    { vectors: b.vectors, fts: b.fts, version, now, fields: kb.metadata_fields, contentFileMinChars: ctx.options.contentFileMinChars },
    results,
  );
  const good = built.good;
  if (good.length === 0) return;
  // Columns for new metadata fields (and any the table lacks) before the rows that carry them; then the registry.
  await table.ensureMetadataColumns(built.fields);
  if (Object.keys(built.fields).length !== Object.keys(kb.metadata_fields).length) {
    kb = ctx.store.registry.put({ ...kb, metadata_fields: built.fields, updated_at: now });
  }
  const replacing = good.filter((w) => w.decision.existing).map((w) => w.doc.doc_id);
  ctx.store.recordIntent(kbId, {
    kind: 'put',
    table: table.name,
    before: await table.version(),
    version,
    doc_ids: good.map((w) => w.doc.doc_id),
  });
  // The large texts are in their content files already (commitDocuments: contentFileTexts); a failure from
  // here on rolls the write back (Store.write), and the files go with it.
  await table.writeDocs(built.rows, replacing);
  b.rows = built.rows.length;
  crashPoint('chunks-written');
  await ctx.store.docs.upsert(built.docRows, replacing.length === 0);
  for (const w of good) b.committed.add(w.doc.doc_id);
  ctx.store.intentDone(kbId);
  crashPoint('doc-rows-written');
  // Replaced documents leave the content files of the versions they replaced (content-files.ts).
  for (const w of good) if (w.decision.version) ctx.store.contents.removeVersion(kbId, w.doc.doc_id, w.decision.version);
  await indexFirstWrite(ctx, table, built.rows.length);
  const embedded = Boolean(b.embedder);
  for (const w of good) {
    results[w.i] = {
      kb_id: kbId,
      doc_id: w.doc.doc_id,
      status: w.decision.existing ? 'updated' : 'added',
      chunk_count: w.doc.chunks.length,
      parser: w.doc.parsed.parser,
      embedded,
      ...(w.doc.warnings.length || !embedded ? { warnings: [...w.doc.warnings, ...(embedded ? [] : noVectorsWarnings(kb))] } : {}),
    };
    ctx.events.emit('ingest', { kb_id: kbId, doc_id: w.doc.doc_id, stage: 'done', chunks: w.doc.chunks.length });
  }
}

/** A model change was swapped in while a batch's chunks were embedded: embed them again with the KB's model now. */
async function embedAgain(ctx: CoreContext, b: Batch, toWrite: Pending[]): Promise<void> {
  b.embedder = await tryEmbedder(ctx, ctx.store.registry.get(b.kbId));
  b.vectors.clear();
  for (const { doc } of toWrite) {
    const got = b.embedder
      ? await b.embedder
          .embedPassages(
            doc.chunks.map((c) => passageText(doc.title, c.text)),
            doc.passage_ids,
          )
          .catch(unavailable)
      : undefined;
    if (got) b.vectors.set(doc, got);
    else b.embedder = undefined;
  }
  if (!b.embedder) b.vectors.clear();
}

/** The passages of documents, in order (loops: see store/arrow-build.ts). */
function passageTexts(docs: readonly PreparedDoc[]): string[] {
  const out: string[] = [];
  for (const doc of docs) for (const c of doc.chunks) out.push(passageText(doc.title, c.text));
  return out;
}

/** A model that cannot embed now (a remote endpoint down, its circuit open): the write goes on without vectors. */
function unavailable(err: unknown): undefined {
  if (err instanceof RagError && err.code === 'model_unavailable') return undefined;
  throw err;
}

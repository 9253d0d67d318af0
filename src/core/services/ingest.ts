import type { AddResult, ChunkingConfig, ChunkingOverride, Kb, Metadata } from '../../shared/contract/index.js';
import { ChunkingConfigSchema } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { chunkDocumentWithWarnings } from '../chunk/index.js';
import type { ChunkDraft } from '../chunk/types.js';
import type { Embedder } from '../embed/types.js';
import { embedReusing } from './vector-reuse.js';
import type { ParsedDocument } from '../parse/types.js';
import type { ChunkRow } from '../store/chunk-table.js';
import { analyzeForIndex } from '../text/analyzer.js';
import { sha256 } from '../util/hash.js';
import type { CoreContext } from './context.js';
import { typeMetadata } from './metadata.js';
import { ensureChunkTable } from '../store/ensure-chunk-table.js';
import { scheduleIndexing } from './indexing.js';
import { passageText } from '../embed/passage.js';

/** The warning on documents written while the KB's model could not be had (vectors are filled in later). */
export const NO_VECTORS_WARNING = 'stored without vectors: the embedding model is not available; full-text search works';

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
  return {
    doc_id: input.doc_id ?? `doc-${hash.slice(0, 16)}`,
    title: input.title?.trim() || defaultTitle(parsed, input.fallbackTitle),
    source: input.source ?? '',
    metadata,
    parsed,
    chunking: input.chunking,
    chunks,
    hash,
    overwrite: input.overwrite,
    warnings: [...parsed.warnings, ...warnings],
    ...(input.file ? { file: input.file } : {}),
  };
}

/** The KB's embedder if it can be had now (loading a cached model is fine; downloads only if allowed). */
export async function tryEmbedder(ctx: CoreContext, kb: Kb): Promise<Embedder | undefined> {
  try {
    return await ctx.models.getEmbedder(kb.embedding_model, { allowDownload: ctx.options.allowDownload });
  } catch (err) {
    if (err instanceof RagError && err.code === 'model_unavailable') return undefined;
    throw err;
  }
}

/** Text embedded for a chunk: the document title gives each chunk its context. */

type Decision = { kind: 'write'; existing: boolean; created_at?: string } | { kind: 'skip'; result: AddResult };

interface Known {
  existing: Map<string, { content_hash: string; chunk_count: number; created_at: string }>;
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
  return { kind: 'write', existing: Boolean(existing), ...(existing ? { created_at: existing.created_at } : {}) };
}

/**
 * Embed and write prepared documents to a KB. Per document: chunks first, the document row last, then the
 * previous version's chunks are removed. Returns one result (or error) per document, in order.
 */
export async function commitDocuments(ctx: CoreContext, kbId: string, docs: PreparedDoc[]): Promise<Array<AddResult | RagError>> {
  const results: Array<AddResult | RagError> = new Array(docs.length);
  const seen = new Map<string, string>();
  const toWrite: Array<{ i: number; doc: PreparedDoc; decision: Extract<Decision, { kind: 'write' }> }> = [];
  let kb = ctx.store.registry.get(kbId);
  // Two queries for the whole batch: which doc_ids exist, which contents are already stored.
  const known: Known = {
    existing: await ctx.store.docs.summaries(kbId, [...new Set(docs.map((d) => d.doc_id))]),
    hashes: await ctx.store.docs.findByHashes(kbId, [...new Set(docs.map((d) => d.hash))]),
  };
  for (const [i, doc] of docs.entries()) {
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
  if (toWrite.length === 0) return results;

  let embedder = await tryEmbedder(ctx, kb);
  const vectors = new Map<PreparedDoc, Float32Array[]>();
  if (embedder) {
    const all = toWrite.flatMap(({ doc }) => doc.chunks.map((c) => passageText(doc.title, c.text)));
    for (const w of toWrite) ctx.events.emit('ingest', { kb_id: kbId, doc_id: w.doc.doc_id, stage: 'embed', chunks: w.doc.chunks.length });
    // A job may offer vectors of documents it just deleted (a renamed file): see jobs/vector-reuse.ts.
    const flat = await embedReusing(ctx, kbId, embedder, all);
    let at = 0;
    for (const { doc } of toWrite) {
      vectors.set(doc, flat.slice(at, at + doc.chunks.length));
      at += doc.chunks.length;
    }
  }

  await ctx.store.write(kbId, async () => {
    if (embedder && embedder.model !== ctx.store.registry.get(kbId).embedding_model) {
      // A model change was swapped in while these chunks were embedded: embed them again with the KB's model now.
      embedder = await tryEmbedder(ctx, ctx.store.registry.get(kbId));
      vectors.clear();
      for (const { doc } of toWrite)
        if (embedder) vectors.set(doc, await embedder.embedPassages(doc.chunks.map((c) => passageText(doc.title, c.text))));
    }
    const table = await ensureChunkTable(ctx.store, ctx.store.registry.get(kbId), embedder, ctx.models.presets());
    kb = ctx.store.registry.get(kbId);
    const rows: ChunkRow[] = [];
    const docRows = [];
    const now = new Date().toISOString();
    const version = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const fields = { ...kb.metadata_fields };
    const good: typeof toWrite = [];
    for (const w of toWrite) {
      try {
        const typed = typeMetadata(w.doc.metadata, fields);
        Object.assign(fields, typed.newFields);
        w.doc.warnings.push(...typed.warnings);
        const docVectors = vectors.get(w.doc);
        w.doc.chunks.forEach((c, ci) => {
          rows.push({
            chunk_id: `${w.doc.doc_id}#${version}#${c.chunk_index}`,
            doc_id: w.doc.doc_id,
            version,
            chunk_index: c.chunk_index,
            text: c.text,
            fts: analyzeForIndex(`${w.doc.title}\n${c.text}`),
            vector: docVectors?.[ci] ?? null,
            title: w.doc.title,
            source: w.doc.source,
            parser: w.doc.parsed.parser,
            page: c.location.page ?? null,
            heading_path: c.location.heading_path?.length ? JSON.stringify(c.location.heading_path) : null,
            line_start: c.location.line_start ?? null,
            line_end: c.location.line_end ?? null,
            char_start: c.location.char_start ?? 0,
            char_end: c.location.char_end ?? c.text.length,
            tokens: c.tokens,
            metadata: JSON.stringify(w.doc.metadata),
            created_at: w.decision.created_at ?? now,
            updated_at: now,
            meta: typed.columns,
          });
        });
        docRows.push({
          kb_id: kbId,
          doc_id: w.doc.doc_id,
          title: w.doc.title,
          source: w.doc.source,
          metadata: w.doc.metadata,
          content: w.doc.parsed.text,
          content_hash: w.doc.hash,
          parser: w.doc.parsed.parser,
          chunking: w.doc.chunking,
          chunk_count: w.doc.chunks.length,
          size: w.doc.parsed.text.length,
          version,
          created_at: w.decision.created_at ?? now,
          updated_at: now,
          file_path: w.doc.file ?? null,
        });
        good.push(w);
      } catch (err) {
        results[w.i] = err instanceof RagError ? err : new RagError('internal', String(err), { cause: err });
      }
    }
    if (Object.keys(fields).length !== Object.keys(kb.metadata_fields).length) {
      await table.ensureMetadataColumns(fields);
      kb = ctx.store.registry.put({ ...kb, metadata_fields: fields, updated_at: now });
    }
    await table.add(rows);
    // Full-text search needs the index to exist; later rows are searched unindexed until upkeep folds them in.
    if (!table.ftsIndexReady) await table.ensureFtsIndex();
    await ctx.store.docs.upsert(
      docRows,
      good.every((w) => !w.decision.existing),
    );
    for (const w of good) if (w.decision.existing) await table.deleteDoc(w.doc.doc_id, version);
    for (const w of good) {
      results[w.i] = {
        kb_id: kbId,
        doc_id: w.doc.doc_id,
        status: w.decision.existing ? 'updated' : 'added',
        chunk_count: w.doc.chunks.length,
        parser: w.doc.parsed.parser,
        embedded: Boolean(embedder),
        ...(w.doc.warnings.length || !embedder ? { warnings: [...w.doc.warnings, ...(embedder ? [] : [NO_VECTORS_WARNING])] } : {}),
      };
      ctx.events.emit('ingest', { kb_id: kbId, doc_id: w.doc.doc_id, stage: 'done', chunks: w.doc.chunks.length });
    }
  });
  scheduleIndexing(ctx, kbId);
  return results;
}

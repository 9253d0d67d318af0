import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { AddResult, ChunkingConfig, Metadata } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { chunkDocumentWithWarnings } from '../chunk/index.js';
import type { ChunkDraft } from '../chunk/types.js';
import type { Embedder } from '../embed/types.js';
import { passageIds, passageText } from '../embed/passage.js';
import { BLOCK_SEPARATOR } from '../parse/assemble.js';
import { SectionParser } from '../parse/stream/section-parse.js';
import { openTextStream } from '../parse/stream/text-sections.js';
import type { ParsedDocument } from '../parse/types.js';
import type { ChunkTable } from '../store/chunk-table.js';
import { physicalChunkTable } from '../store/chunk-rows.js';
import { crashPoint } from '../store/crash-point.js';
import { ensureChunkTable } from '../store/ensure-chunk-table.js';
import type { CoreContext } from './context.js';
import { markNeedsVectors } from './heal.js';
import { indexFirstWrite, scheduleIndexing } from './indexing.js';
import { noVectorsWarnings, tryEmbedder, type PreparedDoc } from './ingest.js';
import { analyzeChunksOffThread } from './analysis-pool.js';
import { buildRows, newVersion } from './ingest-rows.js';
import { embedReusing } from './vector-reuse.js';

/** A text or Markdown file to write section by section (see streamFile). */
export interface StreamInput {
  /** The file to read. */
  path: string;
  format: 'markdown' | 'text';
  doc_id: string;
  source: string;
  title?: string;
  metadata?: Metadata;
  chunking: ChunkingConfig;
  overwrite: boolean;
  /** Title when the file has none (its name). */
  fallbackTitle: string;
  /** The real path read, for "Open file". */
  file?: string;
  signal?: AbortSignal;
  /** After each section is written: bytes of the file read and chunks written so far (awaited). */
  onProgress?: (p: { bytes: number; total_bytes: number; chunks: number }) => void | Promise<void>;
  /** Characters per section (text-sections.ts SECTION_CHARS by default). */
  sectionChars?: number;
  /** The first section as parsed (what health checks look at: encoding, script). */
  onFirstSection?: (parsed: ParsedDocument) => void;
}

export interface StreamResult extends AddResult {
  content_hash: string;
}

/** A model that cannot embed now: the rest is written without vectors (filled in later, heal.ts). */
function unavailable(err: unknown): undefined {
  if (err instanceof RagError && err.code === 'model_unavailable') return undefined;
  throw err;
}

/** A section's chunks placed in the document: character ranges and indexes continue from the sections before. */
function placeChunks(chunks: ChunkDraft[], charOffset: number, indexBase: number): ChunkDraft[] {
  return chunks.map((c) => ({
    ...c,
    chunk_index: c.chunk_index + indexBase,
    location: {
      ...c.location,
      char_start: (c.location.char_start ?? 0) + charOffset,
      char_end: (c.location.char_end ?? c.text.length) + charOffset,
    },
  }));
}

/**
 * Write a text or Markdown file of any size in memory that does not grow with it: read a section (~1 M characters,
 * cut where a block ends), parse, chunk, embed and write its chunks, then the next. The rows are staged: hidden from
 * every search and read until the last section is written, then published with the document row, so readers see
 * the document's old version or its new one whole (chunk-table.ts `stage`/`publishStaged`, store.ts StagedWrite for
 * crashes). Its full text goes to a content file, not the document row (content-files.ts). Each section's commit
 * takes the KB's write lock only for itself: other writes to the KB go on meanwhile.
 */
export async function streamFile(ctx: CoreContext, kbId: string, input: StreamInput): Promise<StreamResult> {
  const kb = ctx.store.registry.get(kbId);
  // Whether it may replace a document is decided at the end, with the text's hash known: re-adding the same text
  // is `skipped` (unchanged), as for a document parsed whole, not `document_already_exists`.
  const before = await ctx.store.docs.summary(kbId, input.doc_id);
  const embedder = await tryEmbedder(ctx, kb);
  const tokenizer = await ctx.models.getTokenCounter(kb.embedding_model);
  const semantic = input.chunking.strategy === 'semantic' && embedder;
  const embed = semantic ? (texts: string[]) => embedder.embedPassages(texts) : undefined;
  const stream = await openTextStream(input.path, {
    markdown: input.format === 'markdown',
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.sectionChars ? { sectionChars: input.sectionChars } : {}),
  });
  const totalBytes = fs.statSync(input.path).size;
  const parser = new SectionParser(input.format, stream);
  const ver = newVersion();
  const writer = ctx.store.contents.writer(kbId, input.doc_id, ver);
  const hash = createHash('sha256');
  const warnings = new Set<string>();
  let table: ChunkTable | undefined;
  let vectorsOk: Embedder | undefined = embedder;
  let chars = 0;
  let chunks = 0;
  let title = '';
  let metadata: Metadata = {};
  const now = new Date().toISOString();
  const decision = { kind: 'write' as const, existing: Boolean(before), ...(before ? { created_at: before.created_at } : {}) };
  /** Set once the document row is committed: from then on the write stands (see publish). */
  const state = { committed: false };
  try {
    for await (const section of stream.sections) {
      await ctx.pause.wait();
      if (input.signal?.aborted) throw new RagError('busy', 'cancelled');
      const parsed = await parser.parse(section, input.signal);
      if (chars === 0 && parsed.text) {
        // The title and metadata come with the first section's text (front matter, first heading).
        title = input.title?.trim() || parser.title?.trim().slice(0, 500) || input.fallbackTitle;
        metadata = { ...parser.metadata, ...(input.metadata ?? {}) };
        input.onFirstSection?.(parsed);
      }
      if (!parsed.text) continue;
      const sep = chars > 0 ? BLOCK_SEPARATOR : '';
      hash.update(sep + parsed.text);
      writer.write(sep + parsed.text);
      const offset = chars + sep.length;
      chars = offset + parsed.text.length;
      const drafted = await chunkDocumentWithWarnings(parsed, input.chunking, { tokenizer, ...(embed ? { embed } : {}) });
      for (const w of drafted.warnings) warnings.add(w);
      const placed = placeChunks(drafted.chunks, offset, chunks);
      chunks += placed.length;
      const doc = {
        doc_id: input.doc_id,
        title,
        source: input.source,
        metadata,
        parsed,
        chunking: input.chunking,
        chunks: placed,
        hash: '',
        overwrite: input.overwrite,
        warnings: [],
      } as PreparedDoc;
      const embedding = vectorsOk
        ? embedReusing(
            ctx,
            kbId,
            vectorsOk,
            placed.map((c) => passageText(title, c.text)),
            passageIds(tokenizer, title, placed),
          ).catch(unavailable)
        : undefined;
      embedding?.catch(() => undefined);
      // Outside the KB's write lock, in the analysis worker while the embedding worker runs (analysis-pool.ts).
      const fts = await analyzeChunksOffThread([doc]);
      const vectors = await embedding;
      if (!vectors) vectorsOk = undefined;
      // Outside the KB's write lock: only the staged-write marker tells the next open what to remove.
      crashPoint('section-embedded');
      table = await writeSection(ctx, kbId, { table, embedder, ver, docId: input.doc_id, now }, (kbNow) => {
        const results: Array<AddResult | RagError> = [];
        const built = buildRows(
          kbId,
          [{ i: 0, doc, decision }],
          // The document's text is in the content file the stream writes (its row is written at the end).
          {
            vectors: new Map(vectors ? [[doc, vectors]] : []),
            fts,
            version: ver,
            now,
            fields: kbNow.metadata_fields,
            contentFileMinChars: Infinity,
          },
          results,
        );
        if (results[0] instanceof RagError) throw results[0];
        for (const w of doc.warnings) warnings.add(w);
        return built;
      });
      // Upkeep folds the staged rows into the full-text index as they come (on its own schedule, ~10% of write
      // time): they are hidden either way, but unindexed rows cost every search a scan.
      scheduleIndexing(ctx, kbId, placed.length);
      ctx.events.emit('ingest', {
        kb_id: kbId,
        file: input.path,
        doc_id: input.doc_id,
        stage: 'embed',
        chunks,
        bytes: section.bytesRead,
        total_bytes: totalBytes,
      });
      await input.onProgress?.({ bytes: section.bytesRead, total_bytes: totalBytes, chunks });
    }
    for (const w of parser.warnings) warnings.add(w);
    if (chars === 0 || !table) throw new RagError('invalid_parameter', 'the document has no text');
    const digest = hash.digest('hex');
    const result = await publish(ctx, kbId, {
      table,
      ver,
      digest,
      chars,
      chunks,
      title,
      metadata,
      input,
      embedder,
      writer,
      before: before?.created_at,
      state,
    });
    if (result.status !== 'skipped') {
      if (!vectorsOk) for (const w of noVectorsWarnings(kb)) warnings.add(w);
      if (warnings.size) result.warnings = [...warnings];
      result.embedded = Boolean(vectorsOk);
      if (!vectorsOk) markNeedsVectors(ctx, kbId);
    }
    return result;
  } catch (err) {
    writer.abort();
    const t = table;
    const succeeded = (p: Promise<unknown>) =>
      p.then(
        () => true,
        () => false,
      );
    if (state.committed && t) {
      // The document row names this version: the write stands; its rows must replace the older ones, not go.
      if (await succeeded(ctx.store.write(kbId, () => t.publishStaged(ver, input.doc_id)))) ctx.store.endStaged(ver);
      throw err;
    }
    fs.rmSync(ctx.store.contents.file(kbId, input.doc_id, ver), { force: true });
    // Only once its rows are gone may the marker go: a store closing under the write (the app quitting) leaves it,
    // and the next open removes the rows, which nothing would hide then.
    if (!t || (await succeeded(ctx.store.write(kbId, () => t.dropStaged(ver))))) ctx.store.endStaged(ver);
    throw err;
  } finally {
    scheduleIndexing(ctx, kbId);
  }
}

type Built = ReturnType<typeof buildRows>;

/** One section's rows into the staged version, under the KB's write lock (the first one records the write). */
async function writeSection(
  ctx: CoreContext,
  kbId: string,
  at: { table: ChunkTable | undefined; embedder: Embedder | undefined; ver: string; docId: string; now: string },
  build: (kb: ReturnType<CoreContext['store']['registry']['get']>) => Built,
): Promise<ChunkTable> {
  return ctx.store.write(kbId, async () => {
    let table = at.table;
    if (!table) {
      table = await ensureChunkTable(ctx.store, ctx.store.registry.get(kbId), at.embedder, ctx.models.presets());
      ctx.store.beginStaged({ kb_id: kbId, table: table.name, doc_id: at.docId, version: at.ver });
    }
    let kb = ctx.store.registry.get(kbId);
    const built = build(kb);
    await table.ensureMetadataColumns(built.fields);
    if (Object.keys(built.fields).length !== Object.keys(kb.metadata_fields).length) {
      kb = ctx.store.registry.put({ ...kb, metadata_fields: built.fields, updated_at: at.now });
    }
    await table.stage(at.ver, built.rows);
    crashPoint('section-staged');
    return table;
  });
}

function alreadyExists(kbId: string, docId: string): RagError {
  return new RagError('document_already_exists', `document "${docId}" already exists in "${kbId}" (set overwrite to replace it)`, {
    details: { kb_id: kbId, doc_id: docId },
  });
}

/**
 * Decide against what is stored now (under the KB's write lock) and publish: the content file, then the document
 * row (which makes the write count), then the staged rows replace the document's older ones in one step.
 */
async function publish(
  ctx: CoreContext,
  kbId: string,
  w: {
    table: ChunkTable;
    ver: string;
    digest: string;
    chars: number;
    chunks: number;
    title: string;
    metadata: Metadata;
    input: StreamInput;
    embedder: Embedder | undefined;
    writer: { commit(): void; abort(): void };
    before: string | undefined;
    state: { committed: boolean };
  },
): Promise<StreamResult> {
  const { input } = w;
  const base = { kb_id: kbId, doc_id: input.doc_id, parser: input.format, content_hash: w.digest };
  return ctx.store.write(kbId, async () => {
    const kb = ctx.store.registry.get(kbId);
    if (physicalChunkTable(kb) !== w.table.name || (w.embedder && w.embedder.model !== kb.embedding_model)) {
      throw new RagError('busy', `the KB's embedding model changed while ${input.fallbackTitle} was being written: add it again`);
    }
    const existing = await ctx.store.docs.summary(kbId, input.doc_id);
    const skipped = async (reason: string, duplicateOf?: string, chunkCount = 0): Promise<StreamResult> => {
      await w.table.dropStaged(w.ver);
      w.writer.abort();
      ctx.store.endStaged(w.ver);
      return {
        ...base,
        status: 'skipped',
        chunk_count: chunkCount,
        skipped_reason: reason,
        embedded: false,
        ...(duplicateOf ? { duplicate_of: duplicateOf } : {}),
      };
    };
    if (existing && existing.content_hash === w.digest)
      return skipped('unchanged: the same content is already stored', undefined, existing.chunk_count);
    if (existing && !input.overwrite) throw alreadyExists(kbId, input.doc_id);
    const dup = (await ctx.store.docs.findByHashes(kbId, [w.digest])).get(w.digest);
    if (dup && dup !== input.doc_id) return skipped(`duplicate: the same content is stored as "${dup}"`, dup);
    w.writer.commit();
    const now = new Date().toISOString();
    await ctx.store.docs.upsert(
      [
        {
          kb_id: kbId,
          doc_id: input.doc_id,
          title: w.title,
          source: input.source,
          metadata: w.metadata,
          content: '',
          content_hash: w.digest,
          parser: input.format,
          chunking: input.chunking,
          chunk_count: w.chunks,
          size: w.chars,
          version: w.ver,
          created_at: existing?.created_at ?? w.before ?? now,
          updated_at: now,
          file_path: input.file ?? null,
        },
      ],
      !existing,
    );
    w.state.committed = true;
    crashPoint('staged-doc-row');
    await w.table.publishStaged(w.ver, input.doc_id);
    ctx.store.endStaged(w.ver);
    // The replaced version's content file (content-files.ts).
    if (existing) ctx.store.contents.removeVersion(kbId, input.doc_id, existing.version);
    await indexFirstWrite(ctx, w.table, w.chunks);
    ctx.events.emit('ingest', { kb_id: kbId, doc_id: input.doc_id, stage: 'done', chunks: w.chunks });
    return { ...base, status: existing ? 'updated' : 'added', chunk_count: w.chunks, embedded: Boolean(w.embedder) };
  });
}

import type { AddResult, MetadataFieldType } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { ChunkRow } from '../store/chunk-table.js';
import type { DocumentRow } from '../store/documents-repo.js';
import { analyzeChunkTexts } from '../text/analyzer.js';
import type { PreparedDoc } from './ingest.js';
import type { Pending } from './write-decision.js';
import { typeMetadata } from './metadata.js';

/** A new version stamp: a document's rows, its chunk ids and its content file carry it. */
export function newVersion(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Whether a document's text is kept in a content file (store/content-files.ts) rather than its row. */
export function inContentFile(text: string, minChars: number): boolean {
  return text.length >= minChars && text.length > 0;
}

/** The texts of documents kept in content files (inContentFile): written before the rows that point at them. */
export function contentFileTexts(docs: Iterable<PreparedDoc>, minChars: number): Array<{ doc_id: string; text: string }> {
  const out: Array<{ doc_id: string; text: string }> = [];
  for (const doc of docs) if (inContentFile(doc.parsed.text, minChars)) out.push({ doc_id: doc.doc_id, text: doc.parsed.text });
  return out;
}

/**
 * Each chunk's full-text column (analyzer.ts: the title and the text, analysed), on this thread: the costliest part
 * of a row (~45 ms a batch of 2,048 chunks), so computed before the KB's write lock is taken, while the batch
 * before is written and the embedding worker runs, not inside the lock; a batch of more than a few chunks goes to
 * a worker thread of its own instead (analysis-pool.ts).
 */
export function analyzeChunks(docs: Iterable<PreparedDoc>): Map<PreparedDoc, string[]> {
  const out = new Map<PreparedDoc, string[]>();
  for (const doc of docs) {
    const texts = doc.chunks.map((c) => c.text);
    out.set(doc, analyzeChunkTexts(doc.title, texts));
  }
  return out;
}

/**
 * The chunk rows and document rows of a batch, all stamped with one `version` (chunk ids carry it too, so a
 * new version never collides with the one it replaces), their full-text column from `at.fts`. Metadata is typed
 * against the KB's fields; a document whose metadata cannot be typed gets its error in `results` and is left out. A
 * text kept in a content file (inContentFile: `at.contentFileMinChars` characters or more, written before the rows,
 * see contentFileTexts) leaves its row's `content` empty.
 */
export function buildRows(
  kbId: string,
  toWrite: Pending[],
  at: {
    vectors: Map<PreparedDoc, Float32Array[]>;
    /** The batch's full-text column (analyzeChunks, or the analysis worker's: analysis-pool.ts). */
    fts: Map<PreparedDoc, string[]>;
    version: string;
    now: string;
    fields: Readonly<Record<string, MetadataFieldType>>;
    contentFileMinChars: number;
  },
  results: Array<AddResult | RagError>,
): {
  rows: ChunkRow[];
  docRows: DocumentRow[];
  good: Pending[];
  fields: Record<string, MetadataFieldType>;
} {
  const { version, now } = at;
  const rows: ChunkRow[] = [];
  const docRows: DocumentRow[] = [];
  const good: Pending[] = [];
  const fields = { ...at.fields };
  for (const w of toWrite) {
    try {
      const typed = typeMetadata(w.doc.metadata, fields);
      Object.assign(fields, typed.newFields);
      w.doc.warnings.push(...typed.warnings);
      const docVectors = at.vectors.get(w.doc);
      const docFts = at.fts.get(w.doc);
      if (!docFts || docFts.length !== w.doc.chunks.length) throw new RagError('internal', `${w.doc.doc_id}: chunks not analysed`);
      const metadata = JSON.stringify(w.doc.metadata);
      for (let ci = 0; ci < w.doc.chunks.length; ci++) {
        const c = w.doc.chunks[ci]!;
        rows.push({
          chunk_id: `${w.doc.doc_id}#${version}#${c.chunk_index}`,
          doc_id: w.doc.doc_id,
          version,
          chunk_index: c.chunk_index,
          text: c.text,
          fts: docFts[ci]!,
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
          metadata,
          created_at: w.decision.created_at ?? now,
          updated_at: now,
          meta: typed.columns,
        });
      }
      const text = w.doc.parsed.text;
      const inFile = inContentFile(text, at.contentFileMinChars);
      docRows.push({
        kb_id: kbId,
        doc_id: w.doc.doc_id,
        title: w.doc.title,
        source: w.doc.source,
        metadata: w.doc.metadata,
        content: inFile ? '' : text,
        content_hash: w.doc.hash,
        parser: w.doc.parsed.parser,
        chunking: w.doc.chunking,
        chunk_count: w.doc.chunks.length,
        size: text.length,
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
  return { rows, docRows, good, fields };
}

import type { DataType, Field as FieldType, Schema as SchemaType } from 'apache-arrow';
import { arrow } from './arrow.js';

const { Bool, Field, FixedSizeList, Float32, Float64, Int32, List, Schema, Utf8 } = arrow;
import type { MetadataFieldType } from '../../shared/contract/kb.js';

/** The `documents` table: one row per document of every KB; the row is written last, so it marks a complete write. */
export function documentsSchema(): SchemaType {
  return new Schema([
    new Field('kb_id', new Utf8(), false),
    new Field('doc_id', new Utf8(), false),
    new Field('title', new Utf8(), false),
    new Field('source', new Utf8(), false),
    new Field('metadata', new Utf8(), false),
    new Field('content', new Utf8(), false),
    new Field('content_hash', new Utf8(), false),
    new Field('parser', new Utf8(), false),
    new Field('chunking', new Utf8(), false),
    new Field('chunk_count', new Int32(), false),
    new Field('size', new Int32(), false),
    new Field('version', new Utf8(), false),
    new Field('created_at', new Utf8(), false),
    new Field('updated_at', new Utf8(), false),
    // The real path of the file the server read the document from (added by path, or a folder source's file);
    // null for text and uploads. Set by ingestion only, never from a caller's input; never shown to callers.
    new Field('file_path', new Utf8(), true),
  ]);
}

/** The vector column of a `dim`-dimensional model. */
export function vectorField(dim: number): FieldType {
  return new Field('vector', new FixedSizeList(dim, new Field('item', new Float32(), true)), true);
}

/**
 * A KB's chunk table. Document facts are copied on each chunk so that filters run inside the vector/FTS query.
 * With `dim` 0 (model size unknown: never loaded, no preset) the table starts without a vector column.
 */
export function chunksSchema(dim: number): SchemaType {
  return new Schema([
    new Field('chunk_id', new Utf8(), false),
    new Field('doc_id', new Utf8(), false),
    new Field('version', new Utf8(), false),
    new Field('chunk_index', new Int32(), false),
    new Field('text', new Utf8(), false),
    new Field('fts', new Utf8(), false),
    // Length of `fts` in index tokens (bm25.ts): what exact BM25 statistics sum up without reading the text.
    new Field('fts_len', new Int32(), true),
    ...(dim > 0 ? [vectorField(dim)] : []),
    new Field('title', new Utf8(), false),
    new Field('source', new Utf8(), false),
    new Field('parser', new Utf8(), false),
    new Field('page', new Int32(), true),
    new Field('heading_path', new Utf8(), true),
    new Field('line_start', new Int32(), true),
    new Field('line_end', new Int32(), true),
    new Field('char_start', new Int32(), false),
    new Field('char_end', new Int32(), false),
    new Field('tokens', new Int32(), false),
    new Field('metadata', new Utf8(), false),
    new Field('created_at', new Utf8(), false),
    new Field('updated_at', new Utf8(), false),
    // The hit's fields but its text, packed in one JSON column for searches to read (chunk-rows.ts HIT_COLUMN).
    new Field('hit', new Utf8(), false),
  ]);
}

export function metadataArrowType(type: MetadataFieldType): DataType {
  switch (type) {
    case 'string':
      return new Utf8();
    case 'number':
      return new Float64();
    case 'boolean':
      return new Bool();
    case 'string_list':
      return new List(new Field('item', new Utf8(), true));
    case 'number_list':
      return new List(new Field('item', new Float64(), true));
  }
}

/** SQL that yields a typed NULL, for adding a metadata column to an existing table. */
export function metadataNullSql(type: MetadataFieldType): string {
  switch (type) {
    case 'string':
      return 'CAST(NULL AS STRING)';
    case 'number':
      return 'CAST(NULL AS DOUBLE)';
    case 'boolean':
      return 'CAST(NULL AS BOOLEAN)';
    case 'string_list':
      return "arrow_cast(NULL, 'List(Utf8)')";
    case 'number_list':
      return "arrow_cast(NULL, 'List(Float64)')";
  }
}

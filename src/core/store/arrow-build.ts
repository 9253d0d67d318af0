import type { Data, Field, FixedSizeList, Int32, Schema, Table, Utf8 } from 'apache-arrow';
import { arrow } from './arrow.js';
import { toUnitLength } from './unit-vector.js';

const { DataType, Float32, makeData, makeVector, RecordBatch, Struct, Table: ArrowTable, vectorFromArray } = arrow;

/**
 * Rows → an Arrow table with exactly `schema`, built column by column into typed buffers. LanceDB's generic
 * row conversion infers every value's path and type; for ingestion of thousands of chunks that conversion was
 * the largest cost of a write (see `npm run bench`), so the hot column types are built directly here. Plain loops,
 * no callbacks: a callback made per call loses its optimised code with it, and these were optimised again after
 * every major GC of an `add` (12-14 times each in one of 20 MB).
 */

function nullBitmap(values: unknown[]): { bitmap: Uint8Array; nulls: number } {
  const bitmap = new Uint8Array(Math.ceil(values.length / 8));
  let nulls = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) nulls++;
    else bitmap[i >> 3]! |= 1 << (i & 7);
  }
  return { bitmap, nulls };
}

function utf8Column(values: unknown[]): Data<Utf8> {
  const strings = new Array<string>(values.length);
  let capacity = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const s = v === null || v === undefined ? '' : String(v);
    strings[i] = s;
    capacity += s.length * 3;
  }
  // Buffer.write: UTF-8 into place without a view and a result object per value (TextEncoder.encodeInto's
  // subarray and {read, written} were ~150 MB of the main thread's 1.2 GB of allocation in an `add` of 20 MB).
  // A value equal to the one before (a document's id, title, source, version... on each of its chunks) is copied
  // from it instead of encoded again: 9 of a chunk row's 14 string columns, ~6 ms each per 54k rows.
  const data = Buffer.alloc(capacity);
  const offsets = new Int32Array(strings.length + 1);
  let at = 0;
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i]!;
    if (i > 0 && s === strings[i - 1]) {
      const from = offsets[i - 1]!;
      const to = offsets[i]!;
      data.copyWithin(at, from, to);
      at += to - from;
    } else at += data.write(s, at, 'utf8');
    offsets[i + 1] = at;
  }
  const { bitmap, nulls } = nullBitmap(values);
  return makeData({
    type: new arrow.Utf8(),
    length: strings.length,
    nullCount: nulls,
    nullBitmap: nulls ? bitmap : null,
    valueOffsets: offsets,
    data: new Uint8Array(data.buffer, data.byteOffset, at),
  });
}

function int32Column(values: unknown[]): Data<Int32> {
  const data = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    data[i] = v === null || v === undefined ? 0 : Number(v);
  }
  const { bitmap, nulls } = nullBitmap(values);
  return makeData({ type: new arrow.Int32(), length: values.length, nullCount: nulls, nullBitmap: nulls ? bitmap : null, data });
}

/**
 * A vector column, each vector written at unit length: searches take `1 − a·b` as the cosine distance
 * (ann-params.ts vectorDistance). The embedders return unit vectors already; this holds it for any writer (a zero
 * vector stays zero).
 */
function vectorColumn(type: FixedSizeList, values: unknown[]): Data<FixedSizeList> {
  const dim = type.listSize;
  const flat = new Float32Array(values.length * dim);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!v) continue;
    flat.set(v as ArrayLike<number>, i * dim);
    toUnitLength(flat, i * dim, dim);
  }
  const { bitmap, nulls } = nullBitmap(values);
  const child = makeData({ type: new Float32(), length: flat.length, data: flat });
  return makeData({ type, length: values.length, nullCount: nulls, nullBitmap: nulls ? bitmap : null, child });
}

function column(field: Field, values: unknown[]): Data {
  const type = field.type;
  if (DataType.isUtf8(type)) return utf8Column(values);
  if (DataType.isInt(type) && type.bitWidth === 32 && type.isSigned) return int32Column(values);
  if (DataType.isFixedSizeList(type) && DataType.isFloat(type.children[0]!.type)) return vectorColumn(type, values);
  const vector = vectorFromArray(
    values.map((v) => (v === undefined ? null : v)),
    type,
  );
  return vector.data.length === 1 ? vector.data[0]! : makeVector(vector.data).data[0]!;
}

/** One record batch with exactly the declared schema (nullability included), so LanceDB appends without casting. */
export function buildArrowTable(schema: Schema, rows: Array<Record<string, unknown>>): Table {
  return buildArrowColumns(schema, rows.length, (name) => {
    const values = new Array<unknown>(rows.length);
    for (let i = 0; i < rows.length; i++) values[i] = rows[i]![name];
    return values;
  });
}

/** buildArrowTable from the values of each column (`valuesOf(field name)`, `length` of them; undefined is null). */
export function buildArrowColumns(schema: Schema, length: number, valuesOf: (name: string) => unknown[]): Table {
  const children: Data[] = [];
  for (const field of schema.fields) children.push(column(field, valuesOf(field.name)));
  const struct = makeData({ type: new Struct(schema.fields), length, nullCount: 0, children });
  return new ArrowTable(schema, [new RecordBatch(schema, struct)]);
}

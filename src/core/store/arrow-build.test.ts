import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support.js';
import { arrow } from './arrow.js';
import { buildArrowTable } from './arrow-build.js';

describe('buildArrowTable', () => {
  it('round-trips strings (any script), nullable ints, vectors and list columns through LanceDB', async () => {
    const schema = new arrow.Schema([
      new arrow.Field('id', new arrow.Utf8(), false),
      new arrow.Field('text', new arrow.Utf8(), true),
      new arrow.Field('page', new arrow.Int32(), true),
      new arrow.Field('vector', new arrow.FixedSizeList(3, new arrow.Field('item', new arrow.Float32(), true)), true),
      new arrow.Field('tags', new arrow.List(new arrow.Field('item', new arrow.Utf8(), true)), true),
      new arrow.Field('score', new arrow.Float64(), true),
    ]);
    const rows = [
      { id: 'a', text: 'таможня 海关 customs', page: 3, vector: new Float32Array([0.1, 0.2, 0.3]), tags: ['x', 'y'], score: 1.5 },
      { id: 'b', text: null, page: null, vector: null, tags: null, score: null },
      { id: 'c', text: '', page: 0, vector: [1, 2, 3], tags: [], score: -2 },
    ];
    const db = await lancedb.connect(tempDir());
    const table = await db.createEmptyTable('t', schema);
    await table.add(buildArrowTable(schema, rows));
    const back = (await table.query().toArray()).sort((x, y) => String(x.id).localeCompare(String(y.id)));
    expect(back.map((r) => r.text)).toEqual(['таможня 海关 customs', null, '']);
    expect(back.map((r) => r.page)).toEqual([3, null, 0]);
    // Vectors are written at unit length (searches take 1 − a·b as the cosine distance: ann-params.ts).
    const norm = Math.sqrt(0.14);
    expect(Array.from(back[0]!.vector as Iterable<number>).map((v) => Math.round(v * 1e5) / 1e5)).toEqual(
      [0.1, 0.2, 0.3].map((v) => Math.round((v / norm) * 1e5) / 1e5),
    );
    expect(Array.from(back[2]!.vector as Iterable<number>).map((v) => Math.round(v * 1e5) / 1e5)).toEqual(
      [1, 2, 3].map((v) => Math.round((v / Math.sqrt(14)) * 1e5) / 1e5),
    );
    expect(back[1]!.vector).toBeNull();
    expect(Array.from(back[0]!.tags as Iterable<string>)).toEqual(['x', 'y']);
    expect(back.map((r) => r.score)).toEqual([1.5, null, -2]);
    expect(await table.countRows("array_has(tags, 'y')")).toBe(1);
  });

  it('writes a unit vector bit for bit as it came, and a zero vector as zeros', () => {
    const schema = new arrow.Schema([
      new arrow.Field('vector', new arrow.FixedSizeList(4, new arrow.Field('item', new arrow.Float32(), true)), true),
    ]);
    const raw = new Float32Array([0.3, -0.5, 0.7, 0.1]);
    let sum = 0;
    for (const x of raw) sum += x * x;
    const unit = raw.map((x) => x / Math.sqrt(sum));
    const column = buildArrowTable(schema, [{ vector: unit }, { vector: new Float32Array(4) }]).getChild('vector')!;
    const values = column.data[0]!.children[0]!.values as Float32Array;
    expect(Array.from(values.subarray(0, 4))).toEqual(Array.from(unit));
    expect(Array.from(values.subarray(4, 8))).toEqual([0, 0, 0, 0]);
  });

  it('writes each string as UTF-8 exactly as TextEncoder does: astral characters, lone surrogates (U+FFFD), NUL, repeats', () => {
    const schema = new arrow.Schema([new arrow.Field('s', new arrow.Utf8(), true)]);
    const built = ['та', 'мож', 'ня'].join('');
    // Repeated values (copied from the one before): the same string, an equal one built apart, after an empty one.
    const values = [
      'таможня',
      'таможня',
      built,
      '海关',
      'emoji 😀 end',
      'emoji 😀 end',
      'lone \ud800 high',
      'lone \udc00 low',
      'nul \u0000 byte',
      '',
      null,
      '',
      'ascii',
      'ascii',
      'x',
    ];
    const column = buildArrowTable(
      schema,
      values.map((s) => ({ s })),
    ).getChild('s')!;
    const data = column.data[0]!;
    const bytes = data.values;
    const offsets = data.valueOffsets;
    const encoder = new TextEncoder();
    values.forEach((v, i) => {
      const got = bytes.subarray(offsets[i]!, offsets[i + 1]!);
      expect(Array.from(got)).toEqual(Array.from(encoder.encode(v ?? '')));
    });
    expect(bytes.length).toBe(offsets[values.length]);
  });
});

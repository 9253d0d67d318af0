import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { encodeOnnxModel, type OnnxGraph } from './onnx-writer.js';

// onnx-proto (a devDependency) decodes what our hand-written encoder produced.
interface Decoded {
  irVersion: number | { toNumber(): number };
  opsetImport: { domain: string; version: number | { toNumber(): number } }[];
  graph: {
    name: string;
    node: {
      opType: string;
      input: string[];
      output: string[];
      attribute: { name: string; i?: unknown; ints?: unknown[]; f?: number; type: number }[];
    }[];
    input: { name: string; type: { tensorType: { elemType: number; shape: { dim: { dimValue?: unknown; dimParam?: string }[] } } } }[];
    output: { name: string }[];
    initializer: { name: string; dims: unknown[]; dataType: number; rawData: Uint8Array }[];
  };
}
const { onnx } = createRequire(import.meta.url)('onnx-proto') as { onnx: { ModelProto: { decode(b: Uint8Array): Decoded } } };
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(String(v)));

describe('encodeOnnxModel', () => {
  const graph: OnnxGraph = {
    name: 'g',
    inputs: [{ name: 'input_ids', dataType: 'int64', shape: ['batch', 'seq'] }],
    outputs: [{ name: 'out', dataType: 'float', shape: ['batch', 'seq', 3] }],
    initializers: [
      { name: 'table', dataType: 'float', dims: [2, 3], floats: Float32Array.of(1, 2, 3, 4, 5, -6.5) },
      { name: 'axes', dataType: 'int64', dims: [1], int64s: [-1] },
    ],
    nodes: [
      { op: 'Gather', inputs: ['table', 'input_ids'], outputs: ['out'], attributes: [{ name: 'axis', int: -1 }] },
      {
        op: 'Identity',
        inputs: ['out'],
        outputs: ['out2'],
        attributes: [
          { name: 'ints', ints: [1, 2] },
          { name: 'f', float: 0.5 },
        ],
      },
    ],
  };

  it('writes a ModelProto that a protobuf decoder reads back', () => {
    const model = onnx.ModelProto.decode(encodeOnnxModel(graph, { opset: 17 }));
    expect(num(model.irVersion)).toBe(8);
    expect(model.opsetImport.map((o) => [o.domain, num(o.version)])).toEqual([['', 17]]);
    expect(model.graph.name).toBe('g');
    expect(model.graph.node.map((n) => n.opType)).toEqual(['Gather', 'Identity']);
    const gather = model.graph.node[0]!;
    expect(gather.input).toEqual(['table', 'input_ids']);
    expect(num(gather.attribute[0]!.i)).toBe(-1);
    const identity = model.graph.node[1]!;
    expect(identity.attribute[0]!.ints!.map(num)).toEqual([1, 2]);
    expect(identity.attribute[1]!.f).toBe(0.5);

    const input = model.graph.input[0]!;
    expect(input.name).toBe('input_ids');
    expect(input.type.tensorType.elemType).toBe(7);
    expect(input.type.tensorType.shape.dim.map((d) => d.dimParam)).toEqual(['batch', 'seq']);
    expect(model.graph.output[0]!.name).toBe('out');

    const [table, axes] = model.graph.initializer;
    expect(table!.dims.map(num)).toEqual([2, 3]);
    expect(table!.dataType).toBe(1);
    const raw = table!.rawData;
    expect(Array.from(new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)))).toEqual([1, 2, 3, 4, 5, -6.5]);
    const axesRaw = axes!.rawData;
    expect(new DataView(axesRaw.buffer, axesRaw.byteOffset, axesRaw.byteLength).getBigInt64(0, true)).toBe(-1n);
  });
});

/**
 * A minimal ONNX `ModelProto` encoder: just enough protobuf to write small inference graphs (the fixture
 * models). Hand-written instead of using `onnx-proto`/`protobufjs` so that code shipped in the app (the bench
 * and e2e fixtures use it) carries no dev-only dependency. Field numbers follow onnx/onnx.proto (ir_version 8).
 */

export type OnnxDataType = 'float' | 'int64';

const DATA_TYPE: Record<OnnxDataType, number> = { float: 1, int64: 7 };

export interface OnnxTensor {
  name: string;
  dataType: OnnxDataType;
  dims: number[];
  /** Float values (dataType `float`), written as little-endian raw_data. */
  floats?: Float32Array;
  /** Integer values (dataType `int64`). */
  int64s?: number[];
}

export interface OnnxValueInfo {
  name: string;
  dataType: OnnxDataType;
  /** A number is a fixed dimension, a string a symbolic one (e.g. `batch`). */
  shape: (number | string)[];
}

export type OnnxAttribute = { name: string; int: number } | { name: string; ints: number[] } | { name: string; float: number };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  attributes?: OnnxAttribute[];
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
  initializers: OnnxTensor[];
}

export interface EncodeOptions {
  /** Default opset of the `ai.onnx` domain (default 13). */
  opset?: number;
  /** Default 8 (ONNX 1.10+; onnxruntime reads it). */
  irVersion?: number;
  producer?: string;
}

// --- protobuf primitives -------------------------------------------------------------------------

const encoder = new TextEncoder();

function varint(value: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

class Message {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array | number[]): void {
    const b = bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes);
    this.parts.push(b);
    this.size += b.length;
  }

  private tag(field: number, wireType: number): void {
    this.push(varint((field << 3) | wireType));
  }

  int(field: number, value: number): this {
    this.tag(field, 0);
    this.push(varint(value));
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.push(varint(value.length));
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, encoder.encode(value));
  }

  message(field: number, value: Message): this {
    return this.bytes(field, value.finish());
  }

  float(field: number, value: number): this {
    this.tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const p of this.parts) {
      out.set(p, offset);
      offset += p.length;
    }
    return out;
  }
}

// --- ONNX messages -------------------------------------------------------------------------------

function tensorProto(t: OnnxTensor): Message {
  const m = new Message();
  for (const d of t.dims) m.int(1, d); // dims
  m.int(2, DATA_TYPE[t.dataType]); // data_type
  m.string(8, t.name); // name
  if (t.dataType === 'float') {
    const values = t.floats ?? new Float32Array(0);
    const raw = new Uint8Array(values.length * 4);
    const view = new DataView(raw.buffer);
    values.forEach((v, i) => view.setFloat32(i * 4, v, true));
    m.bytes(9, raw); // raw_data
  } else {
    const values = t.int64s ?? [];
    const raw = new Uint8Array(values.length * 8);
    const view = new DataView(raw.buffer);
    values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
    m.bytes(9, raw);
  }
  return m;
}

function valueInfoProto(v: OnnxValueInfo): Message {
  const shape = new Message();
  for (const d of v.shape) {
    const dim = new Message();
    if (typeof d === 'number')
      dim.int(1, d); // dim_value
    else dim.string(2, d); // dim_param
    shape.message(1, dim);
  }
  const tensorType = new Message().int(1, DATA_TYPE[v.dataType]).message(2, shape); // elem_type, shape
  const type = new Message().message(1, tensorType); // TypeProto.tensor_type
  return new Message().string(1, v.name).message(2, type);
}

// AttributeProto.AttributeType
const ATTR_FLOAT = 1;
const ATTR_INT = 2;
const ATTR_INTS = 7;

function attributeProto(a: OnnxAttribute): Message {
  const m = new Message().string(1, a.name);
  if ('int' in a) m.int(3, a.int).int(20, ATTR_INT);
  else if ('ints' in a) {
    for (const v of a.ints) m.int(8, v);
    m.int(20, ATTR_INTS);
  } else m.float(2, a.float).int(20, ATTR_FLOAT);
  return m;
}

function nodeProto(n: OnnxNode, index: number): Message {
  const m = new Message();
  for (const i of n.inputs) m.string(1, i);
  for (const o of n.outputs) m.string(2, o);
  m.string(3, n.name ?? `${n.op}_${index}`);
  m.string(4, n.op);
  for (const a of n.attributes ?? []) m.message(5, attributeProto(a));
  return m;
}

/** Encode a graph as a serialized ONNX ModelProto (the bytes of a `.onnx` file). */
export function encodeOnnxModel(graph: OnnxGraph, options: EncodeOptions = {}): Uint8Array {
  const g = new Message();
  graph.nodes.forEach((n, i) => g.message(1, nodeProto(n, i)));
  g.string(2, graph.name);
  for (const t of graph.initializers) g.message(5, tensorProto(t));
  for (const v of graph.inputs) g.message(11, valueInfoProto(v));
  for (const v of graph.outputs) g.message(12, valueInfoProto(v));

  const opset = new Message().string(1, '').int(2, options.opset ?? 13);
  return new Message()
    .int(1, options.irVersion ?? 8) // ir_version
    .string(2, options.producer ?? 'ragdesk') // producer_name
    .string(3, '1') // producer_version
    .message(7, g) // graph
    .message(8, opset) // opset_import
    .finish();
}

/**
 * Summing a static model's token rows with WebAssembly SIMD: four floats per add instead of one. Pooling rows of
 * potion's token table (pooling.ts tablePoolNormalize) had become the embedding worker's largest single cost in an
 * ingest (~1.5 s of the 20 MB bench folder's ~6 s on that thread, at ~1 ns per float added in scalar JavaScript).
 *
 * The module is one function, written here as bytes (as onnx-writer.ts writes ONNX: no toolchain in the build):
 *
 *   sum(rowsPtr, n, dimBytes, outPtr): for each 64-byte block k of a row (16 floats, four f32x4 lanes), add up
 *   block k of the n rows whose float offsets are the i32s at rowsPtr (a row at float offset r starts at byte 4r),
 *   and store the four sums at outPtr + k.
 *
 * The table is built in the module's memory (static-table.ts fills it); the rows list and the sum live after it.
 * Sums are float32, added in row order per lane: they differ from the scalar path's double sums by rounding only
 * (~1e-6 of a unit vector at most in the tests), far below what ranking can see.
 */

// The instructions used, by name (WebAssembly binary format; SIMD ones after the 0xfd prefix).
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = [0x0b];
const BR = (depth: number) => [0x0c, depth];
const BR_IF = (depth: number) => [0x0d, depth];
const LOCAL_GET = (i: number) => [0x20, i];
const LOCAL_SET = (i: number) => [0x21, i];
/** A small non-negative constant (signed LEB128). */
const I32_CONST = (v: number) => (v < 64 ? [0x41, v] : [0x41, 0x80 | (v & 0x7f), v >> 7]);
const I32_LOAD = [0x28, 0x02, 0x00];
const I32_GE_U = [0x4f];
const I32_ADD = [0x6a];
const I32_SHL = [0x74];
const V128_LOAD = (offset: number) => [0xfd, 0x00, 0x04, offset];
const V128_STORE = (offset: number) => [0xfd, 0x0b, 0x04, offset];
const V128_ZERO = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];
const F32X4_ADD = [0xfd, 0xe4, 0x01];

/** Parameters 0-3, then locals: 4 k (byte offset in a row), 5 j (row), 6 base (the row block's address), 7-10 sums. */
const [ROWS, N, DIM_BYTES, OUT, K, J, BASE] = [0, 1, 2, 3, 4, 5, 6];
const SUMS = [7, 8, 9, 10];

function sumBody(): number[] {
  const code: number[][] = [
    [0x02, 0x03, 0x7f, 0x04, 0x7b], // locals: 3 × i32, 4 × v128
    [...BLOCK, ...LOOP], // $done, $blocks
    [...LOCAL_GET(K), ...LOCAL_GET(DIM_BYTES), ...I32_GE_U, ...BR_IF(1)], // k >= dimBytes: leave $done
    ...SUMS.map((s) => [...V128_ZERO, ...LOCAL_SET(s)]),
    [...I32_CONST(0), ...LOCAL_SET(J)],
    [...BLOCK, ...LOOP], // $rowsDone, $rows
    [...LOCAL_GET(J), ...LOCAL_GET(N), ...I32_GE_U, ...BR_IF(1)], // j >= n: leave $rowsDone
    // base = (the i32 at rowsPtr + 4j) × 4 + k
    [...LOCAL_GET(ROWS), ...LOCAL_GET(J), ...I32_CONST(2), ...I32_SHL, ...I32_ADD, ...I32_LOAD],
    [...I32_CONST(2), ...I32_SHL, ...LOCAL_GET(K), ...I32_ADD, ...LOCAL_SET(BASE)],
    ...SUMS.map((s, q) => [...LOCAL_GET(s), ...LOCAL_GET(BASE), ...V128_LOAD(16 * q), ...F32X4_ADD, ...LOCAL_SET(s)]),
    [...LOCAL_GET(J), ...I32_CONST(1), ...I32_ADD, ...LOCAL_SET(J)],
    [...BR(0), ...END, ...END], // next row; end $rows, $rowsDone
    // out + k ← the four sums
    [...LOCAL_GET(OUT), ...LOCAL_GET(K), ...I32_ADD, ...LOCAL_SET(BASE)],
    ...SUMS.map((s, q) => [...LOCAL_GET(BASE), ...LOCAL_GET(s), ...V128_STORE(16 * q)]),
    [...LOCAL_GET(K), ...I32_CONST(64), ...I32_ADD, ...LOCAL_SET(K)],
    [...BR(0), ...END, ...END], // next block; end $blocks, $done
    END,
  ];
  return code.flat();
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function uleb(v: number): number[] {
  const out: number[] = [];
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}

const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

/** The module's bytes: imports `env.memory`, exports `sum`. */
export function simdSumModule(): Uint8Array {
  const body = sumBody();
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
    ...section(2, [0x01, ...name('env'), ...name('memory'), 0x02, 0x00, 0x01]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...name('sum'), 0x00, 0x00]),
    ...section(10, [0x01, ...uleb(body.length), ...body]),
  ]);
}

/** A table's rows summed in the module: `rows` takes a text's row offsets, sumNormalize pools the first n. */
export interface SimdRowSum {
  /** The token table, in the module's memory. */
  table: Float32Array;
  /** Float offsets (id × dim) of a text's rows go here, at most `rows.length`. */
  rows: Int32Array;
  /** Sum the first `n` rows listed in `rows`, and write the sum scaled to unit length to `out` at `at`. */
  sumNormalize(n: number, out: Float32Array, at: number): void;
}

const PAGE = 65536;

/** The part of the WebAssembly API used here (core's TypeScript setup carries no WebAssembly types). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
/** Rows one text may list (model_max_length is 512 for potion): longer texts fall back to the scalar path. */
export const SIMD_MAX_ROWS = 8192;

/**
 * A zeroed [size, dim] table in a SIMD module's memory, for the caller to fill (`table`), and its row sums;
 * undefined where WebAssembly SIMD is missing or `dim` is not a multiple of 16.
 */
export function simdRowSum(size: number, dim: number): SimdRowSum | undefined {
  if (size <= 0 || dim <= 0 || dim % 16 !== 0) return undefined;
  const bytes = simdSumModule();
  if (!wasm?.validate(bytes)) return undefined;
  const rowsAt = size * dim * 4;
  const outAt = rowsAt + SIMD_MAX_ROWS * 4;
  let memory: { buffer: ArrayBuffer };
  let sum: (rowsPtr: number, n: number, dimBytes: number, outPtr: number) => void;
  try {
    memory = new wasm.Memory({ initial: Math.ceil((outAt + dim * 4) / PAGE) });
    sum = new wasm.Instance(new wasm.Module(bytes), { env: { memory } }).exports.sum as typeof sum;
  } catch {
    // No room for the module's memory (a process limited in address space): the scalar sums.
    return undefined;
  }
  const rows = new Int32Array(memory.buffer, rowsAt, SIMD_MAX_ROWS);
  const summed = new Float32Array(memory.buffer, outAt, dim);
  return {
    table: new Float32Array(memory.buffer, 0, size * dim),
    rows,
    sumNormalize(n, out, at) {
      sum(rowsAt, n, dim * 4, outAt);
      let sq = 0;
      for (let q = 0; q < dim; q++) sq += summed[q]! * summed[q]!;
      const norm = Math.sqrt(sq);
      if (norm > 0) for (let q = 0; q < dim; q++) out[at + q] = summed[q]! / norm;
    },
  };
}

import { gunzipSync } from 'node:zlib';

/**
 * Tesseract's `.traineddata` container: an int32 count of components, then one int64 offset per component
 * (-1 for an absent one), then the components. Checking that header catches a truncated download, an HTML
 * error page saved under the right name, or a file that is not language data at all, before Tesseract
 * aborts on it inside the WASM module.
 */
const MAX_ENTRIES = 64;
/** The smallest real traineddata (tessdata_fast) is a few hundred kB; nothing useful is under this. */
const MIN_BYTES = 4096;

export function isGzip(data: Uint8Array): boolean {
  return data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;
}

/** Why the bytes are not traineddata, or undefined when the header is sound. */
export function traineddataProblem(data: Uint8Array): string | undefined {
  if (data.length < MIN_BYTES) return `too small to be language data (${data.length} bytes)`;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const entries = view.getInt32(0, true);
  if (entries < 1 || entries > MAX_ENTRIES) return 'not Tesseract language data (bad header)';
  const headerEnd = 4 + entries * 8;
  if (headerEnd > data.length) return 'truncated (the header is cut off)';
  let present = 0;
  for (let i = 0; i < entries; i++) {
    const offset = Number(view.getBigInt64(4 + i * 8, true));
    if (offset === -1) continue;
    if (offset < headerEnd || offset > data.length) return 'truncated or damaged (a component lies outside the file)';
    present++;
  }
  return present === 0 ? 'holds no components' : undefined;
}

/** The traineddata bytes of a file as stored (gunzipped when it is a `.gz`), or throws with the reason. */
export function decodeTraineddata(raw: Uint8Array, label: string): Uint8Array {
  let data = raw;
  if (isGzip(raw)) {
    try {
      data = gunzipSync(raw);
    } catch (err) {
      throw new Error(`${label}: the gzip stream is damaged (${err instanceof Error ? err.message : String(err)})`, { cause: err });
    }
  }
  const problem = traineddataProblem(data);
  if (problem) throw new Error(`${label}: ${problem}`);
  return data;
}

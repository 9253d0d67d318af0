/**
 * Page images for Tesseract. Rendered and decoded pages become 8-bit grey PGM (P5): Tesseract (Leptonica) reads it
 * without a decoder, it costs a tenth of a PNG encode, and grey is all OCR looks at. Pixel counts are capped, so a
 * poster-sized page cannot take the memory of a worker.
 */

/** Largest rendered or decoded page handed to OCR, in pixels (A4 at 300 dpi is 8.7 M; A3 at 300 dpi 17.4 M). */
export const MAX_PAGE_PIXELS = 24_000_000;

export interface PageImage {
  /** Image bytes Tesseract reads: PGM for rendered/decoded pages, or the file as it came (PNG, JPEG…). */
  data: Uint8Array;
  width: number;
  height: number;
  /** Resolution it was drawn at, when known (rendered PDF pages). */
  dpi?: number;
}

/** RGBA pixels (canvas ImageData layout) as grey, transparent pixels blended over white paper. */
export function rgbaToGrey(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let i = 0, j = 0; j < out.length; i += 4, j++) {
    const grey = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
    const a = rgba[i + 3]!;
    out[j] = a === 255 ? grey : 255 - (((255 - grey) * a) >> 8);
  }
  return out;
}

export function greyToPgm(grey: Uint8Array, width: number, height: number): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const out = new Uint8Array(header.length + grey.length);
  out.set(header, 0);
  out.set(grey, header.length);
  return out;
}

export function rgbaToPgm(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  return greyToPgm(rgbaToGrey(rgba, width, height), width, height);
}

/** Scale factor (≤ 1) that brings width × height under the pixel cap. */
export function fitScale(width: number, height: number, maxPixels = MAX_PAGE_PIXELS): number {
  const px = width * height;
  return px <= maxPixels ? 1 : Math.sqrt(maxPixels / px);
}

/** Grey pixels scaled down by `scale` (< 1), each output pixel the mean of the input pixels it covers. */
export function scaleGrey(
  grey: Uint8Array,
  width: number,
  height: number,
  scale: number,
): { grey: Uint8Array; width: number; height: number } {
  const w = Math.max(1, Math.floor(width * scale));
  const h = Math.max(1, Math.floor(height * scale));
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor((y * height) / h);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * height) / h));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor((x * width) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * width) / w));
      let sum = 0;
      for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) sum += grey[yy * width + xx]!;
      out[y * w + x] = Math.round(sum / ((y1 - y0) * (x1 - x0)));
    }
  }
  return { grey: out, width: w, height: h };
}

/**
 * Page images for Tesseract. Rendered and decoded pages become 8-bit grey PGM (P5): Tesseract (Leptonica) reads it
 * without a decoder, it costs a tenth of a PNG encode, and grey is all OCR looks at. Pixel counts are capped, so
 * a poster-sized page or a 100-megapixel photo cannot take the memory of a worker.
 */

/** Largest page image handed to OCR, in pixels (an A4 page at 300 dpi is 8.7 M; A3 at 300 dpi 17.4 M). */
export const MAX_PAGE_PIXELS = 24_000_000;

export interface PageImage {
  /** Image bytes Tesseract reads: PGM for rendered/decoded pages, or the file as it came (PNG, JPEG…). */
  data: Uint8Array;
  width: number;
  height: number;
  /** Resolution it was drawn at, when known (rendered PDF pages). */
  dpi?: number;
}

/** RGBA pixels (canvas ImageData layout) as a PGM file. */
export function rgbaToPgm(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const out = new Uint8Array(header.length + width * height);
  out.set(header, 0);
  let j = header.length;
  for (let i = 0; i < width * height * 4; i += 4) {
    const a = rgba[i + 3]!;
    // Transparent pixels are paper: blend over white.
    const grey = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
    out[j++] = a === 255 ? grey : 255 - (((255 - grey) * a) >> 8);
  }
  return out;
}

/** Scale factor (≤ 1) that brings width × height under the pixel cap. */
export function fitScale(width: number, height: number, maxPixels = MAX_PAGE_PIXELS): number {
  const px = width * height;
  return px <= maxPixels ? 1 : Math.sqrt(maxPixels / px);
}

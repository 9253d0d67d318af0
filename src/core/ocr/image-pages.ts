import type UTIF from 'utif2';
import { imageSize } from './image-size.js';
import { fitScale, greyToPgm, MAX_PAGE_PIXELS, rgbaToGrey, scaleGrey, type PageImage } from './page-image.js';

/**
 * The pages of an image file: one for PNG, JPEG, WebP, GIF (first frame) and BMP; one per image for TIFF (a
 * fax or a scanner's multi-page TIFF), reduced-resolution previews left out.
 *
 * Untrusted image bytes are never handed to a native decoder in this process (a damaged PNG crashes
 * @napi-rs/canvas's decoder, and the whole process with it). PNG, JPEG, WebP, GIF and BMP go to Tesseract as
 * they are: Leptonica decodes them inside the WASM sandbox, where a bad file is an error, not a crash, and
 * tesseract.js honours a JPEG's EXIF orientation. Their size is read from the headers here. TIFF is decoded in
 * JavaScript (UTIF: uncompressed, LZW, Deflate, PackBits, JPEG, CCITT G3/G4) to grey, scaled to the pixel cap.
 */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'bmp' | 'webp' | 'tiff';

/** Largest image handed to Tesseract as it is: a 50-megapixel phone photo fits. */
export const MAX_IMAGE_PIXELS = 64_000_000;

const startsWith = (d: Uint8Array, sig: readonly number[], at = 0) => sig.every((b, i) => d[at + i] === b);

export function imageFormat(data: Uint8Array): ImageFormat | undefined {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (startsWith(data, [0x49, 0x49, 0x2a, 0x00]) || startsWith(data, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  if (looksLikeBmp(data)) return 'bmp';
  return undefined;
}

/** DIB header sizes of the BMP variants (core, OS/2 v2, v3, v3 with masks, v4, v5). */
const BMP_DIB_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

/**
 * "BM" alone is no signature: a text file starting "BMI", "BMP" or "BMW" begins with it too. A BMP also has its
 * reserved bytes 6–9 zero and a known DIB header size at byte 14.
 */
function looksLikeBmp(d: Uint8Array): boolean {
  if (d.length <= 26 || !startsWith(d, [0x42, 0x4d]) || !startsWith(d, [0, 0, 0, 0], 6)) return false;
  return BMP_DIB_SIZES.has(new DataView(d.buffer, d.byteOffset, d.byteLength).getUint32(14, true));
}

export interface ImagePages {
  format: ImageFormat;
  count: number;
  /** Size of the first page. */
  width: number;
  height: number;
  page(index: number): Promise<PageImage>;
}

const tag = (ifd: UTIF.IFD, name: string): number => (ifd[name] as number[] | undefined)?.[0] ?? 0;

/** utif2, loaded with the first TIFF (~35 ms of every parse worker's start otherwise). */
let utif: Promise<typeof UTIF> | undefined;
const loadUtif = () => (utif ??= import('utif2').then((m) => (m as { default?: typeof UTIF }).default ?? (m as unknown as typeof UTIF)));

async function tiffPages(data: Uint8Array): Promise<ImagePages> {
  const UTIF = await loadUtif();
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  const ifds = UTIF.decode(buffer).filter((ifd) => {
    const subfile = ifd.t254 as number[] | undefined;
    // bit 0: a reduced-resolution copy of another page; an image without a size is nothing to read.
    return !(subfile && (subfile[0]! & 1) === 1) && tag(ifd, 't256') > 0 && tag(ifd, 't257') > 0;
  });
  if (ifds.length === 0) throw new Error('the TIFF holds no image');
  return {
    format: 'tiff',
    count: ifds.length,
    width: tag(ifds[0]!, 't256'),
    height: tag(ifds[0]!, 't257'),
    async page(index) {
      const ifd = ifds[index]!;
      const w = tag(ifd, 't256');
      const h = tag(ifd, 't257');
      if (!(w > 0 && h > 0)) throw new Error(`TIFF page ${index + 1} has no size`);
      if (w * h > MAX_IMAGE_PIXELS) throw new Error(`TIFF page ${index + 1} is ${w}×${h} pixels, over the limit of ${MAX_IMAGE_PIXELS}`);
      UTIF.decodeImage(buffer, ifd);
      let grey = rgbaToGrey(UTIF.toRGBA8(ifd), ifd.width, ifd.height);
      let width = ifd.width;
      let height = ifd.height;
      const scale = fitScale(width, height, MAX_PAGE_PIXELS);
      if (scale < 1) ({ grey, width, height } = scaleGrey(grey, width, height, scale));
      return { data: greyToPgm(grey, width, height), width, height };
    },
  };
}

/** The pages of an image file; throws for bytes that are no image we read, or one too large. */
export async function imagePages(data: Uint8Array): Promise<ImagePages> {
  const format = imageFormat(data);
  if (!format) throw new Error('not an image we read (PNG, JPEG, TIFF, WebP, GIF, BMP)');
  if (format === 'tiff') return tiffPages(data);
  const size = imageSize(data, format);
  if (!size) throw new Error(`the ${format.toUpperCase()} image is damaged (no size in its header)`);
  const { width, height } = size;
  if (width * height > MAX_IMAGE_PIXELS) throw new Error(`the image is ${width}×${height} pixels, over the limit of ${MAX_IMAGE_PIXELS}`);
  return { format, count: 1, width, height, page: async () => ({ data, width, height }) };
}

/** Format, page count and size of an image (nothing is decoded but TIFF's directory); throws for damaged bytes. */
export async function probeImage(data: Uint8Array): Promise<Pick<ImagePages, 'format' | 'count' | 'width' | 'height'>> {
  const { format, count, width, height } = await imagePages(data);
  return { format, count, width, height };
}

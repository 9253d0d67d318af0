import { createCanvas, loadImage } from '@napi-rs/canvas';
import UTIF from 'utif2';
import { fitScale, MAX_PAGE_PIXELS, rgbaToPgm, type PageImage } from './page-image.js';

/**
 * The pages of an image file: one for PNG, JPEG, WebP, GIF (first frame) and BMP; one per image for TIFF
 * (a fax or a scanner's multi-page TIFF), reduced-resolution previews left out. PNG/JPEG/WebP/GIF/BMP go to
 * Tesseract as they are (Leptonica decodes them, and tesseract.js honours a JPEG's EXIF orientation) unless
 * they are over the pixel cap; TIFF is decoded here (UTIF: uncompressed, LZW, Deflate, PackBits, JPEG, CCITT
 * G3/G4) to grey PGM. Damaged images throw; the caller reports them as `parse_failed`.
 */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'bmp' | 'webp' | 'tiff';

const startsWith = (d: Uint8Array, sig: readonly number[], at = 0) => sig.every((b, i) => d[at + i] === b);

export function imageFormat(data: Uint8Array): ImageFormat | undefined {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (startsWith(data, [0x49, 0x49, 0x2a, 0x00]) || startsWith(data, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  if (startsWith(data, [0x42, 0x4d]) && data.length > 26) return 'bmp';
  return undefined;
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

/** A decoded image drawn (scaled to the cap) onto a canvas and read back as grey PGM. */
async function viaCanvas(data: Uint8Array): Promise<PageImage> {
  const img = await loadImage(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  const scale = fitScale(img.width, img.height);
  const width = Math.max(1, Math.round(img.width * scale));
  const height = Math.max(1, Math.round(img.height * scale));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(img, 0, 0, width, height);
  return { data: rgbaToPgm(ctx.getImageData(0, 0, width, height).data, width, height), width, height };
}

function tiffPages(data: Uint8Array): ImagePages {
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  const ifds = UTIF.decode(buffer).filter((ifd) => {
    const subfile = ifd.t254 as number[] | undefined;
    return !(subfile && (subfile[0]! & 1) === 1); // bit 0: a reduced-resolution copy of another page
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
      if (w * h > MAX_PAGE_PIXELS * 4) throw new Error(`TIFF page ${index + 1} is ${w}×${h} pixels, over the limit`);
      UTIF.decodeImage(buffer, ifd);
      const rgba = UTIF.toRGBA8(ifd);
      const full = { data: rgbaToPgm(rgba, ifd.width, ifd.height), width: ifd.width, height: ifd.height };
      if (fitScale(full.width, full.height) === 1) return full;
      // Over the cap: draw it smaller through a canvas.
      const canvas = createCanvas(full.width, full.height);
      const ctx = canvas.getContext('2d');
      const imageData = ctx.createImageData(full.width, full.height);
      imageData.data.set(rgba);
      ctx.putImageData(imageData, 0, 0);
      return viaCanvas(canvas.toBuffer('image/png'));
    },
  };
}

/** The pages of an image file; throws for bytes that are no image we read. */
export async function imagePages(data: Uint8Array): Promise<ImagePages> {
  const format = imageFormat(data);
  if (!format) throw new Error('not an image we read (PNG, JPEG, TIFF, WebP, GIF, BMP)');
  if (format === 'tiff') return tiffPages(data);
  // Decoding once checks the file and tells its size.
  const img = await loadImage(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  const { width, height } = img;
  if (!(width > 0 && height > 0)) throw new Error('the image has no size');
  const passThrough = fitScale(width, height) === 1 && format !== 'gif' && format !== 'bmp';
  return {
    format,
    count: 1,
    width,
    height,
    page: async () => (passThrough ? { data, width, height } : viaCanvas(data)),
  };
}

/** Format, page count and size of an image (TIFF pixels are not decoded); throws for damaged bytes. */
export async function probeImage(data: Uint8Array): Promise<Pick<ImagePages, 'format' | 'count' | 'width' | 'height'>> {
  const { format, count, width, height } = await imagePages(data);
  return { format, count, width, height };
}

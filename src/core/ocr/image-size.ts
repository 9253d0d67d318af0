/**
 * Width and height of an image from its header, without decoding it (see image-pages.ts for why no native decoder
 * touches untrusted bytes). Undefined when the header is cut off or makes no sense.
 */
export interface Size {
  width: number;
  height: number;
}

const MAX_SIDE = 1 << 16;

function valid(width: number, height: number): Size | undefined {
  return width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE ? { width, height } : undefined;
}

function png(d: DataView): Size | undefined {
  // Signature (8), IHDR length (4), "IHDR" (4), width, height.
  if (d.byteLength < 24 || d.getUint32(12) !== 0x49484452) return undefined;
  return valid(d.getUint32(16), d.getUint32(20));
}

function jpeg(d: DataView): Size | undefined {
  let at = 2;
  while (at + 9 < d.byteLength) {
    if (d.getUint8(at) !== 0xff) return undefined;
    const marker = d.getUint8(at + 1);
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = d.getUint16(at + 2);
    // Start of frame: SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return valid(d.getUint16(at + 7), d.getUint16(at + 5));
    }
    if (marker === 0xd9 || marker === 0xda || length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

function gif(d: DataView): Size | undefined {
  return d.byteLength < 10 ? undefined : valid(d.getUint16(6, true), d.getUint16(8, true));
}

function bmp(d: DataView): Size | undefined {
  if (d.byteLength < 26) return undefined;
  const header = d.getUint32(14, true);
  if (header === 12) return valid(d.getUint16(18, true), d.getUint16(20, true));
  return valid(Math.abs(d.getInt32(18, true)), Math.abs(d.getInt32(22, true)));
}

function webp(d: DataView): Size | undefined {
  if (d.byteLength < 30) return undefined;
  const chunk = String.fromCharCode(d.getUint8(12), d.getUint8(13), d.getUint8(14), d.getUint8(15));
  if (chunk === 'VP8 ') {
    // Frame tag (3), start code 9d 01 2a, then 14-bit width and height.
    if (d.getUint8(23) !== 0x9d || d.getUint8(24) !== 0x01 || d.getUint8(25) !== 0x2a) return undefined;
    return valid(d.getUint16(26, true) & 0x3fff, d.getUint16(28, true) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (d.getUint8(20) !== 0x2f) return undefined;
    const bits = d.getUint32(21, true);
    return valid((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    const w = d.getUint8(24) | (d.getUint8(25) << 8) | (d.getUint8(26) << 16);
    const h = d.getUint8(27) | (d.getUint8(28) << 8) | (d.getUint8(29) << 16);
    return valid(w + 1, h + 1);
  }
  return undefined;
}

const READERS: Record<'png' | 'jpeg' | 'gif' | 'bmp' | 'webp', (d: DataView) => Size | undefined> = { png, jpeg, gif, bmp, webp };

export function imageSize(data: Uint8Array, format: keyof typeof READERS): Size | undefined {
  return READERS[format](new DataView(data.buffer, data.byteOffset, data.byteLength));
}

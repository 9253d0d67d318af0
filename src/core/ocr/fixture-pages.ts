import fs from 'node:fs';
import { deflateSync } from 'node:zlib';
import { createCanvas, GlobalFonts, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { FixturePageText } from './fixture-texts.js';

/**
 * Scanned-page fixtures made here, never downloaded: known text drawn with system fonts at a given resolution,
 * optionally turned a little (a page fed crooked) or soiled (speckles, a grey cast, blur: a photocopy or phone
 * photo), then written as PNG, JPEG or an image-only PDF (one greyscale image per page, no text layer). Used
 * by the OCR tests' committed fixtures (make-ocr-fixtures.ts) and by `npm run bench` (more pages at run time).
 */
/** `photo`: turned and soiled together. */
export type PageVariant = 'clean' | 'rotated' | 'noisy' | 'photo';

export interface RenderedPage {
  /** RGBA pixels. */
  canvas: Canvas;
  width: number;
  height: number;
  dpi: number;
  /** The text on the page, paragraphs separated by newlines. */
  truth: string;
}

const FONT_FILES: Record<'latin' | 'cjk', string[]> = {
  latin: [
    '/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf',
    '/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf',
  ],
  cjk: ['/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc', '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'],
};
const registered = new Map<string, string>();

/** A font family for the script, registered from the first system font file found. */
export function fixtureFont(script: 'latin' | 'cjk'): string {
  const known = registered.get(script);
  if (known) return known;
  const file = FONT_FILES[script].find((f) => fs.existsSync(f));
  if (!file) {
    throw new Error(
      `no ${script} font for OCR fixtures: install ${script === 'cjk' ? 'fonts-noto-cjk' : 'fonts-liberation or fonts-dejavu'}`,
    );
  }
  const family = `ragdesk-fixture-${script}`;
  GlobalFonts.registerFromPath(file, family);
  registered.set(script, family);
  return family;
}

function wrap(ctx: SKRSContext2D, text: string, width: number, cjk: boolean): string[] {
  const lines: string[] = [];
  let line = '';
  for (const unit of cjk ? [...text] : text.split(' ')) {
    const next = line ? (cjk ? line + unit : `${line} ${unit}`) : unit;
    if (line && ctx.measureText(next).width > width) {
      lines.push(line);
      line = unit;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** A small deterministic PRNG (mulberry32), so noisy fixtures are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RenderOptions {
  dpi: number;
  variant?: PageVariant;
  /** Only the first n paragraphs (tests keep pages short). */
  paragraphs?: number;
  /** Page width in inches (default 8.27: A4); the height fits the text. */
  widthIn?: number;
  /** Degrees, for the rotated variant (default 1.5). */
  angle?: number;
  seed?: number;
}

export function renderPage(page: FixturePageText, options: RenderOptions): RenderedPage {
  const { dpi } = options;
  const cjk = page.lang === 'chi_sim';
  const family = fixtureFont(cjk ? 'cjk' : 'latin');
  const paragraphs = page.paragraphs.slice(0, options.paragraphs ?? page.paragraphs.length);
  const width = Math.round((options.widthIn ?? 8.27) * dpi);
  const margin = Math.round(0.8 * dpi);
  const body = (11 * dpi) / 72;
  const heading = (15 * dpi) / 72;
  // Lay out first to know the height.
  const probe = createCanvas(width, 10).getContext('2d');
  const laid: Array<{ size: number; lines: string[] }> = paragraphs.map((text, i) => {
    const size = i === 0 ? heading : body;
    probe.font = `${size}px ${family}`;
    return { size, lines: wrap(probe, text, width - 2 * margin, cjk) };
  });
  const height = Math.round(margin * 2 + laid.reduce((h, p) => h + p.lines.length * p.size * 1.45 + p.size * 0.8, 0));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const variant = options.variant ?? 'clean';
  const soiled = variant === 'noisy' || variant === 'photo';
  ctx.fillStyle = soiled ? '#e9e6df' : '#ffffff';
  ctx.fillRect(0, 0, width, height);
  if (variant === 'rotated' || variant === 'photo') {
    ctx.translate(width / 2, height / 2);
    ctx.rotate(((options.angle ?? 1.5) * Math.PI) / 180);
    ctx.translate(-width / 2, -height / 2);
  }
  ctx.fillStyle = soiled ? '#2a2a2a' : '#000000';
  ctx.textBaseline = 'alphabetic';
  let y = margin;
  for (const p of laid) {
    ctx.font = `${p.size}px ${family}`;
    for (const line of p.lines) {
      y += p.size * 1.45;
      ctx.fillText(line, margin, y);
    }
    y += p.size * 0.8;
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (soiled) soil(ctx, width, height, options.seed ?? 7);
  return { canvas, width, height, dpi, truth: paragraphs.join('\n') };
}

/** Speckles (dust, toner), a faint blur and uneven grey: what a photocopy or a phone photo adds. */
function soil(ctx: SKRSContext2D, width: number, height: number, seed: number): void {
  const rand = prng(seed);
  const img = ctx.getImageData(0, 0, width, height);
  const px = img.data;
  const specks = Math.round(width * height * 0.002);
  for (let i = 0; i < specks; i++) {
    const at = (Math.floor(rand() * height) * width + Math.floor(rand() * width)) * 4;
    const v = rand() < 0.5 ? 40 : 250;
    px[at] = px[at + 1] = px[at + 2] = v;
  }
  for (let i = 0; i < px.length; i += 4) {
    const shade = Math.round((rand() - 0.5) * 24 - (i / px.length) * 18);
    px[i] = Math.max(0, Math.min(255, px[i]! + shade));
    px[i + 1] = Math.max(0, Math.min(255, px[i + 1]! + shade));
    px[i + 2] = Math.max(0, Math.min(255, px[i + 2]! + shade));
  }
  ctx.putImageData(img, 0, 0);
}

export function toPng(page: RenderedPage): Uint8Array {
  return new Uint8Array(page.canvas.toBuffer('image/png'));
}

export function toJpeg(page: RenderedPage, quality = 80): Uint8Array {
  return new Uint8Array(page.canvas.toBuffer('image/jpeg', quality));
}

function grey(page: RenderedPage): Uint8Array {
  const rgba = page.canvas.getContext('2d').getImageData(0, 0, page.width, page.height).data;
  const out = new Uint8Array(page.width * page.height);
  for (let i = 0, j = 0; j < out.length; i += 4, j++) out[j] = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
  return out;
}

/**
 * An image-only PDF: each page one greyscale (Flate) image filling the page at its resolution, no text layer.
 * `junkLayers[i]`, when given, puts an invisible text layer with that text on page i (what a failed OCR pass or a
 * broken font encoding leaves behind), in Helvetica.
 */
export function toImagePdf(pages: RenderedPage[], junkLayers: Array<string | undefined> = []): Uint8Array {
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    chunks.push(buf);
    size += buf.length;
  };
  const obj = (n: number, body: Buffer | string, stream?: Buffer) => {
    offsets[n] = size;
    push(`${n} 0 obj\n`);
    push(body);
    if (stream) {
      push('\nstream\n');
      push(stream);
      push('\nendstream');
    }
    push('\nendobj\n');
  };
  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  const kids = pages.map((_, i) => `${3 + i * 3} 0 R`).join(' ');
  const fontN = 3 + pages.length * 3;
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  pages.forEach((p, i) => {
    const [pageN, contentN, imageN] = [3 + i * 3, 4 + i * 3, 5 + i * 3];
    const w = ((p.width * 72) / p.dpi).toFixed(2);
    const h = ((p.height * 72) / p.dpi).toFixed(2);
    const junk = junkLayers[i];
    const font = junk === undefined ? '' : ` /Font << /F1 ${fontN} 0 R >>`;
    const resources = `<< /XObject << /Im0 ${imageN} 0 R >>${font} >>`;
    obj(pageN, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources ${resources} /Contents ${contentN} 0 R >>`);
    const escaped = junk?.replace(/[\\()]/g, (c) => `\\${c}`);
    const text = junk === undefined ? '' : ` BT 3 Tr /F1 10 Tf 40 40 Td (${escaped}) Tj ET`;
    const content = Buffer.from(`q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q${text}`, 'latin1');
    obj(contentN, `<< /Length ${content.length} >>`, content);
    const data = deflateSync(grey(p), { level: 9 });
    obj(
      imageN,
      `<< /Type /XObject /Subtype /Image /Width ${p.width} /Height ${p.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>`,
      data,
    );
  });
  obj(fontN, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const xref = size;
  const count = fontN + 1;
  push(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let n = 1; n < count; n++) push(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(chunks));
}

/** A baseline TIFF (uncompressed 8-bit grey, little-endian), one image per page: a scanner's multi-page TIFF. */
export function toTiff(pages: RenderedPage[]): Uint8Array {
  const TAGS = 10;
  const ifdSize = 2 + TAGS * 12 + 4;
  let size = 8;
  const layout = pages.map((p) => {
    const ifd = size;
    const res = ifd + ifdSize; // two RATIONALs (x and y resolution)
    const pixels = res + 16;
    size = pixels + p.width * p.height;
    size += size % 2; // word-aligned next IFD
    return { ifd, res, pixels };
  });
  const out = new Uint8Array(size);
  const d = new DataView(out.buffer);
  out.set([0x49, 0x49, 0x2a, 0x00]);
  d.setUint32(4, layout[0]!.ifd, true);
  pages.forEach((p, i) => {
    const { ifd, res, pixels } = layout[i]!;
    const entries: Array<[number, number, number, number]> = [
      [256, 4, 1, p.width], // ImageWidth
      [257, 4, 1, p.height], // ImageLength
      [258, 3, 1, 8], // BitsPerSample
      [259, 3, 1, 1], // Compression: none
      [262, 3, 1, 1], // PhotometricInterpretation: black is zero
      [273, 4, 1, pixels], // StripOffsets
      [278, 4, 1, p.height], // RowsPerStrip
      [279, 4, 1, p.width * p.height], // StripByteCounts
      [282, 5, 1, res], // XResolution
      [283, 5, 1, res + 8], // YResolution
    ];
    d.setUint16(ifd, TAGS, true);
    entries.forEach(([t, type, count, value], k) => {
      const at = ifd + 2 + k * 12;
      d.setUint16(at, t, true);
      d.setUint16(at + 2, type, true);
      d.setUint32(at + 4, count, true);
      if (type === 3) d.setUint16(at + 8, value, true);
      else d.setUint32(at + 8, value, true);
    });
    d.setUint32(ifd + 2 + TAGS * 12, layout[i + 1]?.ifd ?? 0, true);
    for (const at of [res, res + 8]) {
      d.setUint32(at, p.dpi, true);
      d.setUint32(at + 4, 1, true);
    }
    out.set(grey(p), pixels);
  });
  return out;
}

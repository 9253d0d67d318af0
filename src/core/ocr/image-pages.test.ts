import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { characterErrorRate } from './cer.js';
import { toTiff, type RenderedPage } from './fixture-pages.js';
import { imagePages, imageFormat } from './image-pages.js';
import { imageSize } from './image-size.js';
import { ocrDocument } from './ocr-document.js';
import { disposeOcrThread, runOcrPageTask } from './page-task.js';
import { haveTessdata, ocrFixture, ocrFixtureTruth, storeWith } from './test-support.js';

afterAll(() => disposeOcrThread());

function canvasOf(w: number, h: number) {
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  return canvas;
}

/** The committed Russian scan as a page (decoded here with the canvas: trusted test input). */
async function russianPage(): Promise<RenderedPage> {
  const img = await loadImage(Buffer.from(ocrFixture('scan-ru.png')));
  const canvas = canvasOf(img.width, img.height);
  canvas.getContext('2d').drawImage(img, 0, 0);
  return { canvas, width: img.width, height: img.height, dpi: 300, truth: ocrFixtureTruth('scan-ru.png')[0]! };
}

describe('image files as pages', () => {
  it('reads the size of PNG, JPEG, WebP, GIF and BMP from their headers', () => {
    const c = canvasOf(321, 123);
    for (const [mime, format] of [
      ['image/png', 'png'],
      ['image/jpeg', 'jpeg'],
      ['image/webp', 'webp'],
    ] as const) {
      const data = new Uint8Array(c.toBuffer(mime as 'image/png'));
      expect(imageFormat(data)).toBe(format);
      expect(imageSize(data, format)).toEqual({ width: 321, height: 123 });
    }
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x41, 0x01, 0x7b, 0x00, 0, 0, 0]);
    expect(imageSize(gif, 'gif')).toEqual({ width: 321, height: 123 });
    const bmp = new Uint8Array(54);
    const d = new DataView(bmp.buffer);
    bmp.set([0x42, 0x4d]);
    d.setUint32(14, 40, true);
    d.setInt32(18, 321, true);
    d.setInt32(22, -123, true); // top-down
    expect(imageFormat(bmp)).toBe('bmp');
    expect(imageSize(bmp, 'bmp')).toEqual({ width: 321, height: 123 });
  });

  it('does not take text that starts with "BM" for a bitmap (SciFact abstracts titled "BMP…", "BMI…")', () => {
    for (const text of [
      'BMP-2 induces the differentiation of osteoblasts in a dose-dependent manner across the cohort.',
      'BMI and mortality: a prospective study of 900,000 adults in 57 cohorts from Europe and North America.',
    ])
      expect(imageFormat(new TextEncoder().encode(text))).toBeUndefined();
  });

  it('refuses damaged and oversized images with an error, never a crash', async () => {
    const truncatedPng = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    await expect(imagePages(truncatedPng)).rejects.toThrow(/damaged/);
    await expect(imagePages(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]))).rejects.toThrow(/damaged/);
    const huge = new Uint8Array(c24());
    await expect(imagePages(huge)).rejects.toThrow(/over the limit/);
    await expect(imagePages(new TextEncoder().encode('plain text'))).rejects.toThrow(/not an image/);
    await expect(imagePages(new Uint8Array([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0, 0, 0]))).rejects.toThrow();
  });

  it('makes one grey page per image of a multi-page TIFF', async () => {
    const blank = canvasOf(40, 30);
    const tiff = toTiff([await russianPage(), { canvas: blank, width: 40, height: 30, dpi: 300, truth: '' }]);
    const pages = await imagePages(tiff);
    expect(pages).toMatchObject({ format: 'tiff', count: 2 });
    const second = await pages.page(1);
    expect([second.width, second.height]).toEqual([40, 30]);
    expect(new TextDecoder().decode(second.data.subarray(0, 12))).toBe('P5\n40 30\n255');
    expect(second.data.at(-1)).toBe(255);
  });
});

describe.runIf(haveTessdata(['rus']))('OCR of image formats', () => {
  it('reads a two-page TIFF page by page and a WebP as it is', async () => {
    const store = storeWith(['rus']);
    const page = await russianPage();
    const tiff = toTiff([page, { canvas: canvasOf(40, 30), width: 40, height: 30, dpi: 300, truth: '' }]);
    const run = (data: Uint8Array) =>
      ocrDocument({
        kind: 'image',
        data,
        pages: 'all',
        candidates: ['rus'],
        store,
        allowDownload: false,
        runPage: (t, s) => runOcrPageTask(t, s),
      });
    const fromTiff = await run(tiff);
    expect(fromTiff.page_count).toBe(2);
    const text = (r: (typeof fromTiff.pages)[number]) => r.reading?.paragraphs.map((p) => p.text).join('\n') ?? '';
    expect(characterErrorRate(text(fromTiff.pages[0]!), page.truth)).toBeLessThanOrEqual(0.05);
    expect(text(fromTiff.pages[1]!)).toBe('');
    const fromWebp = await run(new Uint8Array(page.canvas.toBuffer('image/webp', 90)));
    expect(characterErrorRate(text(fromWebp.pages[0]!), page.truth)).toBeLessThanOrEqual(0.05);
  });
});

/** A PNG header claiming 10000×10000 pixels. */
function c24(): Uint8Array {
  const png = new Uint8Array(33);
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const d = new DataView(png.buffer);
  d.setUint32(16, 10000);
  d.setUint32(20, 10000);
  return png;
}

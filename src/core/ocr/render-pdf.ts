import { createCanvas } from '@napi-rs/canvas';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { loadPdfJs } from '../parse/pdf-parser.js';
import { fitScale, rgbaToPgm, type PageImage } from './page-image.js';

/**
 * PDF pages as images for OCR: pdf.js draws the page (scanned image, vector text drawn as outlines, everything)
 * onto an @napi-rs/canvas canvas at `dpi`, and the pixels become grey PGM. 300 dpi is what Tesseract reads best;
 * pages too large for the pixel cap are drawn at a lower resolution.
 */
export const OCR_DPI = 300;

export interface OpenPdf {
  pageCount: number;
  render(page: number, dpi?: number): Promise<PageImage>;
  close(): Promise<void>;
}

export async function openPdf(data: Uint8Array): Promise<OpenPdf> {
  const { pdfjs, assets } = await loadPdfJs();
  const task = pdfjs.getDocument({
    // pdf.js may detach the buffer it is given: hand it a copy.
    data: new Uint8Array(data),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    cMapUrl: `${assets}/cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${assets}/standard_fonts/`,
    wasmUrl: `${assets}/wasm/`,
  });
  let doc: PDFDocumentProxy;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw err;
  }
  return {
    pageCount: doc.numPages,
    async render(n, dpi = OCR_DPI) {
      const page = await doc.getPage(n);
      try {
        const base = page.getViewport({ scale: 1 });
        const scale = (dpi / 72) * fitScale((base.width * dpi) / 72, (base.height * dpi) / 72);
        const viewport = page.getViewport({ scale });
        const width = Math.max(1, Math.floor(viewport.width));
        const height = Math.max(1, Math.floor(viewport.height));
        const canvas = createCanvas(width, height);
        const ctx = canvas.getContext('2d');
        ctx.fillStyle = '#ffffff';
        ctx.fillRect(0, 0, width, height);
        await page.render({ canvas: null, canvasContext: ctx as never, viewport, background: '#ffffff' }).promise;
        return { data: rgbaToPgm(ctx.getImageData(0, 0, width, height).data, width, height), width, height, dpi: scale * 72 };
      } finally {
        page.cleanup();
      }
    },
    close: () => task.destroy().catch(() => undefined),
  };
}

import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { toImagePdf, type RenderedPage } from '../ocr/fixture-pages.js';
import { ocrFixture } from '../ocr/test-support.js';
import { WARNING_NO_TEXT_LAYER, pdfParser } from './pdf-parser.js';
import { textLayerVerdict } from './text-layer-quality.js';

function blankPage(): RenderedPage {
  const canvas = createCanvas(600, 280);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 600, 280);
  return { canvas, width: 600, height: 280, dpi: 72, truth: '' };
}

describe('text layer quality', () => {
  it('tells text from noise: broken encodings, punctuation soup, stray marks', () => {
    expect(textLayerVerdict('The committee reviewed the quarterly budget.')).toBe('text');
    expect(textLayerVerdict('Комиссия рассмотрела квартальный бюджет.')).toBe('text');
    expect(textLayerVerdict('委员会审议了季度预算，并批准为新的研究实验室提供资金。')).toBe('text');
    expect(textLayerVerdict('')).toBe('empty');
    expect(textLayerVerdict('  \n ')).toBe('empty');
    expect(textLayerVerdict('\uE001\uE002\uE003\uE004 \uE005\uE006\uE007\uE008\uE009\uE00A\uE00B\uE00C ab')).toBe('noise');
    expect(textLayerVerdict('#$%& ()*+ ,-./ :;<= >?@[ ]^_` {|}~ !"#$ %&\'(')).toBe('noise');
    expect(textLayerVerdict('\uFFFD\uFFFD\uFFFD\uFFFD word word word')).toBe('noise');
    expect(textLayerVerdict('12')).toBe('noise');
  });
});

describe('PDF pages left to OCR', () => {
  it('flags every page of an image-only scan', async () => {
    const doc = await pdfParser.parse({ data: ocrFixture('scan-en.pdf'), filename: 'scan-en.pdf' });
    expect(doc.text).toBe('');
    expect(doc.warnings).toContain(WARNING_NO_TEXT_LAYER);
    expect(doc.ocr).toEqual({ kind: 'pdf', pages: [1, 2] });
    expect(doc.metadata.page_count).toBe(2);
  });

  it('flags a page whose text layer is noise, drops that noise, and keeps the real text of the others', async () => {
    const pdf = toImagePdf(
      [blankPage(), blankPage()],
      ['#$%& ()*+ ,-./ :;<= >?@[ ]^_` {|}~', 'Freight is booked ten days before the vessel cut-off date.'],
    );
    const doc = await pdfParser.parse({ data: pdf, filename: 'junk.pdf' });
    expect(doc.ocr).toEqual({ kind: 'pdf', pages: [1] });
    expect(doc.text).toBe('Freight is booked ten days before the vessel cut-off date.');
    expect(doc.blocks.map((b) => b.page)).toEqual([2]);
    expect(doc.metadata.pages_without_text).toEqual([1]);
    expect(doc.warnings).not.toContain(WARNING_NO_TEXT_LAYER);
  });

  it('leaves a PDF with a text layer alone', async () => {
    const pdf = toImagePdf([blankPage()], ['Customers may return defective goods within thirty days of delivery.']);
    const doc = await pdfParser.parse({ data: pdf });
    expect(doc.ocr).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { ocrFixture } from '../ocr/test-support.js';
import { imageParser } from './image-parser.js';

describe('image parser', () => {
  it('checks an image, counts its pages and leaves every page to OCR', async () => {
    const doc = await imageParser.parse({ data: ocrFixture('photo-zh.jpg'), filename: 'photo-zh.jpg' });
    expect(doc).toMatchObject({ parser: 'image', text: '', blocks: [], ocr: { kind: 'image', pages: 'all' } });
    expect(doc.metadata).toEqual({ page_count: 1, image_format: 'jpeg' });
  });

  it('fails a damaged image as parse_failed (corrupt) naming the file', async () => {
    const png = ocrFixture('scan-ru.png').subarray(0, 20);
    await expect(imageParser.parse({ data: png, filename: 'cut.png' })).rejects.toMatchObject({
      code: 'parse_failed',
      details: { reason: 'corrupt', file: 'cut.png' },
    });
  });
});

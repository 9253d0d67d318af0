/**
 * Regenerates the committed OCR fixtures in this folder from the known texts (fixture-texts.ts): scanned pages
 * drawn with system fonts (fonts-liberation or fonts-dejavu, fonts-noto-cjk), written as image-only PDFs and
 * images. Run by hand after changing a text: `npx tsx src/core/ocr/__fixtures__/make-ocr-fixtures.ts`.
 * Each fixture's known text goes next to it as `<name>.txt` (pages separated by a form feed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPage, toImagePdf, toJpeg, toPng, type RenderedPage } from '../fixture-pages.js';
import { fixturePages } from '../fixture-texts.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const short = { paragraphs: 2, widthIn: 5.8 };
const [en1, en2] = fixturePages('eng');
const [ru1, , ru3] = fixturePages('rus');
const [, zh2, zh3] = fixturePages('chi_sim');

function write(name: string, data: Uint8Array, pages: RenderedPage[]): void {
  fs.writeFileSync(path.join(here, name), data);
  fs.writeFileSync(path.join(here, `${name}.txt`), `${pages.map((p) => p.truth).join('\n\f\n')}\n`);
  process.stdout.write(`${name}: ${data.length} bytes, ${pages.length} page(s)\n`);
}

const enPages = [renderPage(en1!, { dpi: 300, ...short }), renderPage(en2!, { dpi: 300, ...short })];
write('scan-en.pdf', toImagePdf(enPages), enPages);
const ru = renderPage(ru3!, { dpi: 300, ...short });
write('scan-ru.png', toPng(ru), [ru]);
const zh = renderPage(zh2!, { dpi: 300, variant: 'photo', angle: 1.2, ...short });
write('photo-zh.jpg', toJpeg(zh, 80), [zh]);
const mixed = [renderPage(ru1!, { dpi: 200, paragraphs: 2, widthIn: 5.8 }), renderPage(zh3!, { dpi: 200, paragraphs: 2, widthIn: 5.8 })];
write('scan-ru-zh.pdf', toImagePdf(mixed), mixed);

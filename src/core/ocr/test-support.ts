import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OcrLanguageStore } from './lang-store.js';

/**
 * Test-only helpers for OCR: Debian's language data (`tesseract-ocr-rus`, `tesseract-ocr-chi-sim`, which .ci/run
 * installs) imported into a temp data dir through the same import path users take, and the committed fixtures
 * with their known text. Nothing is downloaded.
 */
export const DEBIAN_TESSDATA =
  process.env.RAGDESK_TEST_TESSDATA ??
  ['/usr/share/tesseract-ocr/5/tessdata', '/usr/share/tesseract-ocr/4.00/tessdata', '/usr/share/tessdata'].find((d) =>
    fs.existsSync(path.join(d, 'rus.traineddata')),
  ) ??
  '/usr/share/tesseract-ocr/5/tessdata';

/** Whether Debian's data for these languages is installed. In CI its absence is an error, not a skip. */
export function haveTessdata(codes: readonly string[] = ['rus', 'chi_sim']): boolean {
  const missing = codes.filter((c) => !fs.existsSync(path.join(DEBIAN_TESSDATA, `${c}.traineddata`)));
  if (missing.length && process.env.CI) {
    throw new Error(`OCR tests need ${missing.join(', ')} in ${DEBIAN_TESSDATA}: apt-get install tesseract-ocr-rus tesseract-ocr-chi-sim`);
  }
  return missing.length === 0;
}

/** A store in a fresh temp `models` folder with these languages imported from Debian's folder. */
export function storeWith(codes: readonly string[], options: { allowDownload?: boolean; dataUrl?: string } = {}): OcrLanguageStore {
  const models = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-ocr-'));
  const store = new OcrLanguageStore({
    modelsDir: models,
    allowDownload: options.allowDownload ?? false,
    ...(options.dataUrl ? { dataUrl: options.dataUrl } : {}),
  });
  if (codes.length) {
    const result = store.importFrom(DEBIAN_TESSDATA, codes);
    if (result.imported.length !== codes.length)
      throw new Error(`could not import ${codes.join(', ')}: ${JSON.stringify(result.rejected)}`);
  }
  return store;
}

export function ocrFixturePath(name: string): string {
  return fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));
}

export function ocrFixture(name: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(ocrFixturePath(name)));
}

/** The known text of a fixture, one string per page. */
export function ocrFixtureTruth(name: string): string[] {
  return fs
    .readFileSync(ocrFixturePath(`${name}.txt`), 'utf8')
    .trimEnd()
    .split('\n\f\n');
}

import type { ImportOcrLanguagesResult, OcrLanguages, ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { parseOcrCodes } from '../ocr/languages.js';
import type { CoreContext } from './context.js';
import { ocrStore } from './ocr-stage.js';

/** The OCR language operations: what is on this machine, import from a folder, download for offline use. */
export function ocrLanguages(ctx: CoreContext): OcrLanguages {
  const store = ocrStore(ctx);
  return { allow_download: store.allowDownload, languages: store.list() };
}

export function importOcrLanguages(ctx: CoreContext, input: ParsedInput<'importOcrLanguages'>): ImportOcrLanguagesResult {
  const codes = input.languages?.length ? parseOcrCodes(input.languages) : undefined;
  const result = ocrStore(ctx).importFrom(input.path, codes);
  if (result.imported.length === 0) {
    const why = result.rejected.length ? result.rejected.map((r) => `${r.file}: ${r.reason}`).join('; ') : 'no .traineddata files found';
    throw new RagError('invalid_parameter', `nothing imported from ${input.path}: ${why}`, { details: { rejected: result.rejected } });
  }
  return result;
}

/** Download languages now (allowed here even when scans may not download on their own: the owner asked). */
export async function downloadOcrLanguages(ctx: CoreContext, input: ParsedInput<'downloadOcrLanguages'>): Promise<OcrLanguages> {
  await ocrStore(ctx).ensure(parseOcrCodes(input.languages), { allowDownload: true });
  return ocrLanguages(ctx);
}

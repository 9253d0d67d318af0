import { describe, expect, it } from 'vitest';
import { DEFAULT_OCR_LANGUAGES, ocrLanguagesFor, parseOcrCodes, recognitionSet, toOcrCode } from './languages.js';

describe('OCR languages', () => {
  it("maps a KB's language names to Tesseract codes, keeping order and dropping unknown names", () => {
    expect(ocrLanguagesFor(['ru', 'en'])).toEqual(['rus', 'eng']);
    expect(ocrLanguagesFor(['zh-CN', 'Chinese', 'zh'])).toEqual(['chi_sim']);
    expect(ocrLanguagesFor(['deu'])).toEqual(['deu']);
    expect(ocrLanguagesFor(['x'])).toEqual([...DEFAULT_OCR_LANGUAGES]);
  });

  it('uses English, Russian and Chinese when the KB names no languages', () => {
    expect(ocrLanguagesFor([])).toEqual(['eng', 'rus', 'chi_sim']);
    expect(ocrLanguagesFor(undefined)).toEqual(['eng', 'rus', 'chi_sim']);
  });

  it('refuses names that are no Tesseract code, so nothing odd becomes a file name', () => {
    expect(toOcrCode('../etc')).toBeUndefined();
    expect(() => parseOcrCodes(['en', '../../x'])).toThrow(expect.objectContaining({ code: 'invalid_parameter' }));
    expect(parseOcrCodes(['en', 'ru', 'zh', 'ukr'])).toEqual(['eng', 'rus', 'chi_sim', 'ukr']);
  });

  it('pairs Russian with English when both are candidates (Latin terms in Russian text), never Chinese', () => {
    expect(recognitionSet('rus', ['eng', 'rus'])).toBe('rus+eng');
    expect(recognitionSet('rus', ['rus', 'chi_sim'])).toBe('rus');
    expect(recognitionSet('chi_sim', ['eng', 'chi_sim'])).toBe('chi_sim');
    expect(recognitionSet('eng', ['eng', 'rus'])).toBe('eng');
  });
});

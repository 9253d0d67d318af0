import { RagError } from '../../shared/errors.js';

/**
 * OCR languages: Tesseract's codes (`eng`, `rus`, `chi_sim`…), the names a KB's `languages` field may use for
 * them (`en`, `ru`, `zh`…), and the writing system each one reads. The three our users need most are known by
 * name; any other Tesseract code (`deu`, `ukr`, `jpn`…) works once its data is imported.
 */
export interface OcrLanguage {
  /** Tesseract's code: the traineddata file is `<code>.traineddata`. */
  code: string;
  name: string;
  /** Writing system, as the health report names it (latin, cyrillic, cjk). */
  script: string;
  /** Other names for it in a KB's `languages`. */
  aliases: string[];
}

export const KNOWN_LANGUAGES: readonly OcrLanguage[] = [
  { code: 'eng', name: 'English', script: 'latin', aliases: ['en', 'english', 'en-us', 'en-gb'] },
  { code: 'rus', name: 'Russian', script: 'cyrillic', aliases: ['ru', 'russian', 'ru-ru'] },
  {
    code: 'chi_sim',
    name: 'Chinese (Simplified)',
    script: 'cjk',
    aliases: ['zh', 'chinese', 'zh-cn', 'zh-hans', 'zh-sg', 'zh_cn', 'chi-sim'],
  },
];

/** What OCR tries on a page when the KB names no languages: the languages ragdesk's users write in. */
export const DEFAULT_OCR_LANGUAGES: readonly string[] = ['eng', 'rus', 'chi_sim'];

/** The language whose data ships with the app (the npm package `@tesseract.js-data/eng`). */
export const BUNDLED_LANGUAGE = 'eng';

const TESSERACT_CODE = /^[a-z]{3}(?:_[a-z]{3,4})?$/;

/** True for a string shaped like a Tesseract language code (also a safe file name). */
export function isTesseractCode(code: string): boolean {
  return TESSERACT_CODE.test(code);
}

export function languageInfo(code: string): OcrLanguage {
  return KNOWN_LANGUAGES.find((l) => l.code === code) ?? { code, name: code, script: 'other', aliases: [] };
}

/** The Tesseract code for one of a KB's language names; undefined for names OCR does not know. */
export function toOcrCode(name: string): string | undefined {
  const n = name.trim().toLowerCase();
  const known = KNOWN_LANGUAGES.find((l) => l.code === n || l.aliases.includes(n));
  if (known) return known.code;
  return isTesseractCode(n) ? n : undefined;
}

/**
 * The OCR languages for a KB: its `languages` mapped to Tesseract codes (names OCR does not know are left out),
 * or the default set when none is named. The order is kept: the first is tried first.
 */
export function ocrLanguagesFor(kbLanguages: readonly string[] | undefined): string[] {
  const codes = (kbLanguages ?? []).map(toOcrCode).filter((c): c is string => Boolean(c));
  return codes.length ? [...new Set(codes)] : [...DEFAULT_OCR_LANGUAGES];
}

/** Validate codes given by a person (CLI, API): each must be a Tesseract code or a known alias. */
export function parseOcrCodes(names: readonly string[]): string[] {
  return names.map((name) => {
    const code = toOcrCode(name);
    if (!code) {
      throw new RagError('invalid_parameter', `"${name}" is not an OCR language: use a Tesseract code (eng, rus, chi_sim…) or en, ru, zh`, {
        details: { language: name },
      });
    }
    return code;
  });
}

/**
 * The Tesseract language string to recognise one candidate with. A Cyrillic page often carries Latin words
 * (names, terms), so Russian is paired with English when English is a candidate too; Chinese data reads Latin
 * on its own, and pairing it would only slow it down.
 */
export function recognitionSet(code: string, candidates: readonly string[]): string {
  const script = languageInfo(code).script;
  if (script === 'cyrillic' && code !== 'eng' && candidates.includes('eng')) return `${code}+eng`;
  return code;
}

/**
 * Tesseract's text as a reader would write it: Chinese and Japanese come out with a space between every
 * character ("委员 会 审议") and lines broken where the page wrapped them; Latin and Cyrillic words are split by
 * end-of-line hyphens. Search needs the words whole, so a paragraph becomes one line of text.
 */
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff00-\\uffef';
const CJK_GAP = new RegExp(`([${CJK}])[ \\t]+(?=[${CJK}])`, 'gu');
const CJK_BREAK = new RegExp(`([${CJK}])\\n(?=[${CJK}])`, 'gu');
/** "labo-\nratory" → "laboratory": a letter, a hyphen at the end of a line, a lower-case letter next. */
const HYPHEN_BREAK = /(\p{L})[-\u00ad]\n(?=\p{Ll})/gu;

export function cleanOcrText(text: string): string {
  let t = text.replace(/\r\n?/g, '\n').replace(/[ \t]+\n/g, '\n');
  t = t.replace(CJK_GAP, '$1').replace(CJK_GAP, '$1'); // twice: matches may not overlap
  t = t.replace(CJK_BREAK, '$1');
  t = t.replace(HYPHEN_BREAK, '$1');
  return t
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim())
    .filter(Boolean)
    .join(' ')
    .trim();
}

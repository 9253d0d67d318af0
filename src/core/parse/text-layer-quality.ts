/**
 * Whether a PDF page's text layer is text or noise. Some scans carry a text layer that is not the page's text: a
 * broken font encoding (glyph ids read as private-use or control characters, "\uFFFD"), a failed OCR pass that
 * left punctuation soup, or stray marks a few characters long. Those pages are read by OCR instead.
 */

/** A page with fewer visible characters than this has no usable text layer (a page number, a stamp). */
const MIN_CHARS = 12;
/** Share of characters that are private-use, replacement or control characters above which it is noise. */
const MAX_JUNK = 0.2;
/** Share of letters and digits below which a text layer of some length is noise. */
const MIN_WORDISH = 0.45;

export type TextLayerVerdict = 'text' | 'empty' | 'noise';

export function textLayerVerdict(text: string): TextLayerVerdict {
  let visible = 0;
  let junk = 0;
  let wordish = 0;
  for (const ch of text) {
    if (/\s/u.test(ch)) continue;
    visible++;
    // eslint-disable-next-line no-control-regex
    if (/[\uE000-\uF8FF\uFFFD\u0000-\u001f\u007f-\u009f]/u.test(ch)) junk++;
    else if (/[\p{L}\p{N}]/u.test(ch)) wordish++;
  }
  if (visible < MIN_CHARS) return visible === 0 ? 'empty' : 'noise';
  if (junk / visible > MAX_JUNK) return 'noise';
  if (wordish / visible < MIN_WORDISH) return 'noise';
  return 'text';
}

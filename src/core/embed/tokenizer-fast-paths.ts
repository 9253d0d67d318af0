/**
 * Exact shortcuts for three per-text steps of transformers.js' BERT-style tokenizers that walk a text character by
 * character (a regular expression or a trie lookup for each): most texts need none of what those steps do.
 * - BertNormalizer.clean_text drops NUL, U+FFFD and control/format/private-use/surrogate characters (not tab, line
 *   feed or carriage return) and turns each whitespace character into a space: a text with nothing to drop only
 *   needs the spaces.
 * - BertNormalizer.tokenize_chinese_chars puts spaces around CJK ideographs (it looks at UTF-16 units, so only BMP
 *   ones): a text without any is returned as it is.
 * - The added-token splitters (DictionarySplitter over [CLS], [SEP]…) cut a text where an added token starts: a
 *   text holding none of their first characters is one section.
 * Anything else goes to the original method. Uses transformers.js' internal `_tokenizer`; a tokenizer without these
 * parts is left alone. The test compares token rows with and without the shortcuts.
 */

/** What clean_text would drop: is_control (Cc but tab, LF, CR; Cf, Co, Cs), NUL (a Cc) and U+FFFD. */
const CONTROL = /[^\P{Cc}\t\n\r]/u;
const DROPPED = /[\ufffd\p{Cf}\p{Co}\p{Cs}]/u;
/** Any character clean_text drops (CONTROL or DROPPED): a text without one only has its whitespace made spaces. */
export const DROPPED_OR_CONTROL = /[^\P{Cc}\t\n\r]|[\ufffd\p{Cf}\p{Co}\p{Cs}]/u;
const WHITESPACE = /\s/g;
/** The BMP ranges of transformers.js' is_chinese_char (tokenize_chinese_chars reads UTF-16 units). */
const CHINESE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

interface Splitter {
  trie?: Record<string, unknown>;
  split(text: string): string[];
}

function fastSplit(splitter: Splitter | undefined): boolean {
  if (!splitter?.trie || typeof splitter.split !== 'function') return false;
  const firsts = Object.keys(splitter.trie);
  const split = splitter.split.bind(splitter);
  splitter.split = (text: string) => {
    for (const c of firsts) if (text.includes(c)) return split(text);
    return text.length > 0 ? [text] : [];
  };
  return true;
}

/** Install the shortcuts on a tokenizer; returns which of the three steps got one. */
export function addTokenizerFastPaths(tokenizer: unknown): { clean: boolean; chinese: boolean; splitters: number } {
  const t = (tokenizer as { _tokenizer?: Record<string, unknown> } | undefined)?._tokenizer;
  const done = { clean: false, chinese: false, splitters: 0 };
  if (!t) return done;
  const normalizer = t.normalizer as
    { clean_text?: (text: string) => string; tokenize_chinese_chars?: (text: string) => string } | null | undefined;
  if (normalizer && typeof normalizer.clean_text === 'function') {
    const clean = normalizer.clean_text.bind(normalizer);
    normalizer.clean_text = (text: string) => (CONTROL.test(text) || DROPPED.test(text) ? clean(text) : text.replace(WHITESPACE, ' '));
    done.clean = true;
  }
  if (normalizer && typeof normalizer.tokenize_chinese_chars === 'function') {
    const pad = normalizer.tokenize_chinese_chars.bind(normalizer);
    normalizer.tokenize_chinese_chars = (text: string) => (CHINESE.test(text) ? pad(text) : text);
    done.chinese = true;
  }
  for (const key of ['splitter_unnormalized', 'splitter_normalized']) if (fastSplit(t[key] as Splitter | undefined)) done.splitters++;
  return done;
}

/**
 * Character error rate: edit distance between what OCR read and the known text, over the known text's length.
 * Both sides are compared as a reader would: NFKC (full-width punctuation equals ASCII), whitespace runs as one
 * space, and no whitespace at all around Chinese/Japanese characters (the script writes none).
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

export function normalizeForCer(text: string): string {
  const t = text.normalize('NFKC').replace(/\s+/g, ' ').trim();
  if (!CJK.test(t)) return t;
  return t.replace(/ (?=[\p{Script=Han}\p{P}])|(?<=[\p{Script=Han}\p{P}]) /gu, '');
}

/** Levenshtein distance over code points, O(n·m) time and O(m) memory. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  let cur = new Array<number>(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]!;
}

export function characterErrorRate(recognised: string, truth: string): number {
  const r = normalizeForCer(recognised);
  const t = normalizeForCer(truth);
  if (t.length === 0) return r.length === 0 ? 0 : 1;
  return editDistance(r, t) / [...t].length;
}

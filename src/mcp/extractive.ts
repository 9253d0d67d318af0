import type { Hit } from '../shared/contract/index.js';

const MAX_SENTENCES = 4;
const MAX_CHARS = 1200;

const wordSeg = new Intl.Segmenter(undefined, { granularity: 'word' });
const sentenceSeg = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** Lower-cased words of a text (works for Latin, Cyrillic and CJK through Intl.Segmenter). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const s of wordSeg.segment(text.toLocaleLowerCase())) if (s.isWordLike) out.push(s.segment);
  return out;
}

function sentences(text: string): string[] {
  const out: string[] = [];
  for (const s of sentenceSeg.segment(text)) {
    const t = s.segment.replace(/\s+/g, ' ').trim();
    if (t.length > 0) out.push(t);
  }
  return out;
}

/**
 * An answer without a language model: the sentences of the top passages that share the most words with the
 * question, best first, each followed by its source number [n] (n = rank of the passage).
 */
export function extractiveAnswer(question: string, hits: Hit[]): string {
  const q = new Set(words(question).filter((w) => w.length > 1 || /\p{Script=Han}/u.test(w)));
  const scored: Array<{ text: string; n: number; score: number; order: number }> = [];
  hits.forEach((h, i) => {
    sentences(h.text).forEach((s, j) => {
      const ws = words(s);
      const overlap = ws.filter((w) => q.has(w)).length;
      const distinct = new Set(ws.filter((w) => q.has(w))).size;
      // Distinct question words matter most; earlier passages and sentences break ties.
      scored.push({ text: s, n: i + 1, score: distinct * 10 + overlap - i * 0.5 - j * 0.01, order: i * 1000 + j });
    });
  });
  const relevant = scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score);
  const picked = (relevant.length ? relevant : scored.sort((a, b) => a.order - b.order)).slice(0, MAX_SENTENCES);
  let answer = '';
  for (const s of picked) {
    const piece = `${s.text.length > 500 ? `${s.text.slice(0, 500)}…` : s.text} [${s.n}]`;
    if (answer && answer.length + piece.length > MAX_CHARS) break;
    answer = answer ? `${answer} ${piece}` : piece;
  }
  return answer;
}

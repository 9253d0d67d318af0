import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { prng } from './stats.js';

/**
 * Realistic text at any scale for the `scale` bench: chunks recombined from the sentences of a real corpus
 * (SciFact abstracts, or the repo's sample KB in rag_data/ where ../shared is absent), never random words.
 * A chunk is a run of consecutive sentences of one source document (so it stays on one topic), one of them
 * often swapped for a sentence of another document, two neighbours sometimes permuted, and numbers varied
 * (same digit format), so a million chunks are a million distinct texts with a corpus's real vocabulary.
 */

export interface SourceDoc {
  title: string;
  sentences: string[];
}

export interface TextCorpus {
  name: string;
  docs: SourceDoc[];
  /** Search queries written for this corpus (SciFact's claims) or cut from its sentences. */
  queries: string[];
}

export interface GeneratedChunk {
  doc_id: string;
  title: string;
  text: string;
}

const SENTENCE_END = /(?<=[.!?。！？])\s+|(?<=[。！？])/u;

/** Sentences of a text: split after . ! ? and CJK full stops; fragments shorter than 20 characters are dropped. */
export function splitSentences(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => [...s].length >= 20);
}

/** Vary a number by up to ±40 % keeping its format: as many integer digits (years stay years) and decimals. */
function varyNumber(num: string, rand: () => number): string {
  const [int, frac] = num.split('.') as [string, string | undefined];
  const digits = frac?.length ?? 0;
  const lo = int.length > 1 ? 10 ** (int.length - 1) : 0;
  const hi = 10 ** int.length - 10 ** -digits;
  const value = Math.min(hi, Math.max(lo, Number(num) * (0.6 + 0.8 * rand())));
  return value.toFixed(digits);
}

/** The same sentence with its numbers replaced by '#', so a varied sentence can be traced back to its source. */
export function numberShape(sentence: string): string {
  return sentence.replace(/\d+(?:\.\d+)?/g, '#');
}

export class ChunkTextGenerator {
  private readonly rand: () => number;
  private readonly docs: SourceDoc[];

  constructor(
    corpus: TextCorpus,
    seed = 1,
    private readonly sentencesPerChunk: [number, number] = [3, 6],
  ) {
    this.rand = prng(seed);
    this.docs = corpus.docs.filter((d) => d.sentences.length > 0);
    if (this.docs.length === 0) throw new Error(`corpus ${corpus.name} has no sentences`);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)]!;
  }

  /** The next chunk; the sequence depends only on the corpus and the seed. */
  next(i: number): GeneratedChunk {
    const [lo, hi] = this.sentencesPerChunk;
    const doc = this.pick(this.docs);
    const n = lo + Math.floor(this.rand() * (hi - lo + 1));
    const start = Math.floor(this.rand() * doc.sentences.length);
    const picked: string[] = [];
    for (let k = 0; k < n && k < doc.sentences.length; k++) picked.push(doc.sentences[(start + k) % doc.sentences.length]!);
    // recombine: a sentence of another document takes one place
    if (this.rand() < 0.6) picked[Math.floor(this.rand() * picked.length)] = this.pick(this.pick(this.docs).sentences);
    // permute two neighbours
    if (picked.length > 1 && this.rand() < 0.4) {
      const a = Math.floor(this.rand() * (picked.length - 1));
      [picked[a], picked[a + 1]] = [picked[a + 1]!, picked[a]!];
    }
    const text = picked.map((s) => s.replace(/\d+(?:\.\d+)?/g, (num) => (this.rand() < 0.5 ? varyNumber(num, this.rand) : num))).join(' ');
    return { doc_id: `g${Math.floor(i / 8)}`, title: doc.title, text };
  }
}

/** SciFact's 5,183 abstracts (titles and sentences) and its claims as queries. */
export function scifactCorpus(dir: string): TextCorpus {
  const docs = gunzipSync(fs.readFileSync(path.join(dir, 'corpus.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { title: string; text: string })
    .map((d) => ({ title: d.title, sentences: splitSentences(d.text) }));
  const queries = fs
    .readFileSync(path.join(dir, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { text: string }).text);
  return { name: 'scifact', docs, queries };
}

/**
 * The repo's sample KB (rag_data/: English, Russian and Chinese Markdown and text): one source document per
 * section; front matter, list markers and heading marks are dropped. Queries are 4–7-word spans of its sentences.
 */
export function ragDataCorpus(dir: string): TextCorpus {
  const docs: SourceDoc[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!/\.(md|txt)$/.test(file) || file === 'README.md') continue;
    const raw = fs.readFileSync(path.join(dir, file), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
    let title = file;
    let lines: string[] = [];
    const flush = () => {
      const sentences = splitSentences(lines.join(' '));
      if (sentences.length) docs.push({ title, sentences });
      lines = [];
    };
    for (const line of raw.split('\n')) {
      const heading = /^#+\s+(.*)$/.exec(line);
      if (heading) {
        flush();
        title = heading[1]!.trim();
      } else lines.push(line.replace(/^\s*(?:[-*+]|\d+\.)\s+/, '').replace(/[|*_`>]/g, ' '));
    }
    flush();
  }
  const rand = prng(99);
  const all = docs.flatMap((d) => d.sentences);
  const queries = Array.from({ length: 300 }, () => {
    const s = all[Math.floor(rand() * all.length)]!;
    const words = s.split(' ');
    if (words.length < 4) return s.slice(0, 24); // CJK: no spaces, a span of characters
    const len = 4 + Math.floor(rand() * 4);
    const at = Math.floor(rand() * Math.max(1, words.length - len));
    return words.slice(at, at + len).join(' ');
  });
  return { name: 'rag_data', docs, queries };
}

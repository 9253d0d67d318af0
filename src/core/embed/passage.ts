import type { ChunkDraft, TokenCounter } from '../chunk/types.js';
import type { GivenIds } from './word-ids.js';

/** The text a chunk is embedded as: its document's title, then the chunk's text (what vector search matches). */
export const passageText = (title: string, text: string): string => (title ? `${title}\n${text}` : text);

/** A passage's token ids in parts (its title's, then its chunk's), without special tokens. */
export type IdParts = readonly Int32Array[];

/**
 * Token ids of passages (passageText), one entry per passage (undefined: its text is tokenized), from the tokenizer
 * `tokenizer` names (TokenCounter.id): the chunker's, by position (embed/token-index.ts).
 */
export interface PassageIds {
  tokenizer: string;
  parts: ReadonlyArray<IdParts | undefined>;
}

/**
 * The token ids of a document's passages when the chunker gave its chunks ids: the title's ids, then the chunk's
 * (the line break between them adds no token to such a tokenizer). Undefined when there are none to give.
 */
export function passageIds(counter: TokenCounter, title: string, chunks: readonly ChunkDraft[]): PassageIds | undefined {
  if (!counter.ids || !chunks.some((c) => c.ids)) return undefined;
  const head = title ? counter.ids(title) : undefined;
  if (title && !head) return undefined;
  const parts = new Array<IdParts | undefined>(chunks.length);
  for (let k = 0; k < chunks.length; k++) {
    const ids = chunks[k]!.ids;
    parts[k] = ids ? (head ? [head, ids] : [ids]) : undefined;
  }
  return { tokenizer: counter.id, parts };
}

/** Several documents' passage ids as one list (documents without ids: their passages are tokenized). */
export function joinPassageIds(docs: ReadonlyArray<{ ids: PassageIds | undefined; count: number }>): PassageIds | undefined {
  const tokenizer = docs.find((d) => d.ids)?.ids?.tokenizer;
  if (tokenizer === undefined) return undefined;
  const parts: Array<IdParts | undefined> = [];
  for (const d of docs) {
    const same = d.ids?.tokenizer === tokenizer ? d.ids : undefined;
    for (let k = 0; k < d.count; k++) parts.push(same?.parts[k]);
  }
  return { tokenizer, parts };
}

/** The entries [from, to) of passage ids, packed for the embedding worker (word-ids.ts GivenIds). */
export function packIds(parts: ReadonlyArray<IdParts | undefined>, from: number, to: number, prefix: string): GivenIds {
  const n = to - from;
  const offsets = new Int32Array(n);
  const lengths = new Int32Array(n).fill(-1);
  let total = 0;
  for (let k = 0; k < n; k++) for (const p of parts[from + k] ?? []) total += p.length;
  const data = new Int32Array(total);
  let at = 0;
  for (let k = 0; k < n; k++) {
    offsets[k] = at;
    const list = parts[from + k];
    if (!list) continue;
    for (const p of list) {
      data.set(p, at);
      at += p.length;
    }
    lengths[k] = at - offsets[k]!;
  }
  return { data, offsets, lengths, ...(prefix ? { prefix } : {}) };
}

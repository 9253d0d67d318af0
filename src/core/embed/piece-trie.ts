/**
 * WordPiece's greedy longest match, in one place for the three that split words into pieces (the chunker's token
 * counts and the worker's token rows through bert-word-ids.ts, the worker's WordPiece memo through
 * wordpiece-memo.ts). The vocabulary is a trie over UTF-16 units: one walk from a start position finds the longest
 * piece there, where looking candidates up in the vocabulary map makes (and hashes) a new string for every length
 * tried (260k distinct words 0.74 → 0.27 s). Two roots: pieces a word may start with (every key as it is), and
 * pieces that continue one (keys starting with the continuing-subword prefix, without it). A node's children are
 * found in one number-keyed map (`node × alphabet + character`), so the trie costs a few MB for a 30k vocabulary.
 * A vocabulary too large for those keys to stay small integers is searched by slicing and looking up instead.
 */
export interface PieceFinder {
  /**
   * The longest piece of `w` from `start` (a continuation piece when `start > 0`) as `id × PIECE_SPAN + length`, or
   * -1 when no piece starts there.
   */
  longest(w: string, start: number): number;
}

/** Packs a piece's length with its id: a piece is a vocabulary entry, far shorter than this. */
export const PIECE_SPAN = 65_536;

const finders = new WeakMap<Map<string, number>, { prefix: string; finder: PieceFinder }>();

/** The finder for a vocabulary (built once per vocabulary and prefix, then shared). */
export function pieceFinder(vocab: Map<string, number>, prefix: string): PieceFinder {
  const known = finders.get(vocab);
  if (known?.prefix === prefix) return known.finder;
  const finder = pieceTrie(vocab, prefix) ?? bySlicing(vocab, prefix);
  finders.set(vocab, { prefix, finder });
  return finder;
}

/** Undefined when the vocabulary is too large for number keys to stay small integers. */
export function pieceTrie(vocab: Map<string, number>, prefix: string): PieceFinder | undefined {
  const alphabet = new Map<number, number>();
  for (const key of vocab.keys()) {
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (!alphabet.has(c)) alphabet.set(c, alphabet.size);
    }
  }
  const width = alphabet.size;
  const child = new Map<number, number>();
  /** Per node: the vocabulary id of the piece ending there, or -1. Node 0 starts words, node 1 continues them. */
  const ids: number[] = [-1, -1];
  const add = (root: number, s: string, id: number): void => {
    let node = root;
    for (let i = 0; i < s.length; i++) {
      const k = node * width + alphabet.get(s.charCodeAt(i))!;
      let next = child.get(k);
      if (next === undefined) {
        next = ids.length;
        ids.push(-1);
        child.set(k, next);
      }
      node = next;
    }
    ids[node] = id;
  };
  for (const [key, id] of vocab) {
    add(0, key, id);
    if (prefix && key.length > prefix.length && key.startsWith(prefix)) add(1, key.slice(prefix.length), id);
  }
  if (ids.length * width >= 2 ** 30) return undefined;
  return {
    longest(w, start) {
      let node = start > 0 ? 1 : 0;
      let found = -1;
      for (let i = start; i < w.length; i++) {
        const a = alphabet.get(w.charCodeAt(i));
        if (a === undefined) break;
        const next = child.get(node * width + a);
        if (next === undefined) break;
        node = next;
        const id = ids[node]!;
        if (id >= 0) found = id * PIECE_SPAN + (i + 1 - start);
      }
      return found;
    },
  };
}

/** The same match by slicing: candidates from the longest vocabulary entry's length down, each looked up. */
function bySlicing(vocab: Map<string, number>, prefix: string): PieceFinder {
  let longest = 0;
  for (const key of vocab.keys()) longest = Math.max(longest, key.length);
  return {
    longest(w, start) {
      for (let end = Math.min(w.length, start + longest); end > start; end--) {
        const id = vocab.get(start > 0 ? prefix + w.slice(start, end) : w.slice(start, end));
        if (id !== undefined) return id * PIECE_SPAN + (end - start);
      }
      return -1;
    },
  };
}

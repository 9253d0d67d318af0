/**
 * WordPiece's vocabulary as a trie over UTF-16 units, for the greedy longest-match split: one walk from a start
 * position finds the longest piece there, where looking candidates up in the vocabulary map makes (and hashes) a
 * new string for every length tried. Two roots: pieces a word may start with (every key as it is), and pieces that
 * continue one (keys starting with the continuing-subword prefix, without it). A node's children are found in one
 * number-keyed map (`node × alphabet + character`), so the trie costs a few MB for a 30k vocabulary.
 */
export interface PieceTrie {
  /**
   * The longest piece of `w` from `start` (a continuation piece when `start > 0`): `id × 128 + length`, or -1 when
   * no piece starts there. Words longer than 127 units are not asked for (WordPiece gives them [UNK] first).
   */
  longest(w: string, start: number): number;
}

/** Undefined when the vocabulary is too large for number keys to stay small integers (then slice and look up). */
export function pieceTrie(vocab: Map<string, number>, prefix: string): PieceTrie | undefined {
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
        if (id >= 0) found = id * 128 + (i + 1 - start);
      }
      return found;
    },
  };
}

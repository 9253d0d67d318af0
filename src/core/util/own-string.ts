/** V8 takes a substring of this many characters or more as a view into its parent string (a sliced string). */
const SLICE_MIN = 13;

/**
 * `s` in memory of its own, for keeping: a cache key or anything kept long.
 * - A word split out of a 1 M-character section is a view into the section. Kept as a cache key, it keeps the
 *   whole section alive until the cache is cleared: a 200 MB file's sections stayed on the heap that way.
 * - Concatenating copies `s` (flattened on first read); the slice that follows views that copy only.
 * - Shorter strings are copies already.
 */
export function ownString(s: string): string {
  return s.length < SLICE_MIN ? s : (' ' + s).slice(1);
}

import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Whether `p` is `root` or inside it (both absolute and resolved). */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `root` joined with a `/`-separated relative path. */
export const joinRel = (root: string, rel: string): string => (rel ? path.join(root, ...rel.split('/')) : root);

/**
 * The stats of `<root>/<rel>` if it is reached without following any symbolic link: its real path is exactly
 * `<real root>/<rel>`. A link anywhere on the way (the entry itself or a folder above it) gives undefined, as does a
 * path that is not there. `realRoot` is `root`'s real path (fs.realpath), resolved once by the caller.
 */
export async function statNoLinks(realRoot: string, rel: string): Promise<Stats | undefined> {
  const expected = joinRel(realRoot, rel);
  const real = await fs.realpath(expected).catch(() => undefined);
  if (real !== expected) return undefined;
  return fs.lstat(expected).catch(() => undefined);
}

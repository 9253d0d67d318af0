import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { joinRel, statNoLinks } from '../util/inside.js';

/** A file of a source folder as a scan sees it. */
export interface ScannedFile {
  /** Path relative to the source folder, with `/` separators. */
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
}

/** Which files of a folder a source takes: include/exclude globs, dot-files never, subfolders if recursive. */
export interface SourceFilter {
  /** A file (relative path) is taken. */
  accepts(rel: string): boolean;
  /** A path is left out whatever it is (dot-file, or matches an exclude glob); folders left out are not entered. */
  excluded(rel: string): boolean;
}

export const toPosix = (p: string): string => p.split(path.sep).join('/');

/** A glob without a `/` matches at any depth (`*.md` is every Markdown file); `./x` and `/x` are anchored. */
function normalize(glob: string): string {
  const g = glob.trim().replace(/\\/g, '/');
  if (g.startsWith('./')) return g.slice(2);
  if (g.startsWith('/')) return g.slice(1);
  return g.includes('/') ? g : `**/${g}`;
}

const hidden = (rel: string): boolean => rel.split('/').some((s) => s.startsWith('.'));

export function sourceFilter(cfg: { include: readonly string[]; exclude: readonly string[]; recursive: boolean }): SourceFilter {
  const opts = { dot: true };
  const include = cfg.include.length ? picomatch(cfg.include.map(normalize), opts) : () => true;
  const excludeGlobs = cfg.exclude.map(normalize).flatMap((g) => (g.endsWith('/**') ? [g] : [g, `${g}/**`]));
  const exclude = excludeGlobs.length ? picomatch(excludeGlobs, opts) : () => false;
  const excluded = (rel: string) => hidden(rel) || exclude(rel);
  return {
    excluded,
    accepts: (rel) => rel !== '' && !excluded(rel) && (cfg.recursive || !rel.includes('/')) && include(rel),
  };
}

/**
 * List the files a source takes, with size and mtime, under `root` (or only under `under`, a relative folder).
 * The folder is read at its real path. Symbolic links are left out unless the source follows links
 * (`followLinks`, an explicit per-source choice): then links to files and folders are followed wherever they point,
 * each real folder once (no cycles). Without it every file listed is really inside the folder. The watcher's
 * changes are checked with the same rule (statForSource), so a scan and the watcher always agree.
 */
export async function scanFolder(
  root: string,
  filter: SourceFilter,
  recursive: boolean,
  under = '',
  followLinks = false,
): Promise<Map<string, ScannedFile>> {
  const out = new Map<string, ScannedFile>();
  const realRoot = await fs.realpath(root).catch(() => undefined);
  if (!realRoot) return out;
  const visited = new Set<string>();
  const walk = async (relDir: string): Promise<void> => {
    const dir = joinRel(realRoot, relDir);
    if (followLinks) {
      const real = await fs.realpath(dir).catch(() => undefined);
      if (!real || visited.has(real)) return;
      visited.add(real);
    } else if (!(await statNoLinks(realRoot, relDir))?.isDirectory()) return;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    const files: string[] = [];
    const dirs: string[] = [];
    for (const e of entries) {
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      if (filter.excluded(rel)) continue;
      if (e.isSymbolicLink()) {
        if (!followLinks) continue;
        const target = await fs.stat(joinRel(realRoot, rel)).catch(() => undefined);
        if (target?.isDirectory()) {
          if (recursive) dirs.push(rel);
        } else if (target?.isFile() && filter.accepts(rel)) files.push(rel);
      } else if (e.isDirectory()) {
        if (recursive) dirs.push(rel);
      } else if (e.isFile() && filter.accepts(rel)) files.push(rel);
    }
    const stats = await Promise.all(files.map((rel) => (followLinks ? fs.stat : fs.lstat)(joinRel(realRoot, rel)).catch(() => undefined)));
    files.forEach((rel, k) => {
      const st = stats[k];
      if (st?.isFile()) out.set(rel, { rel, abs: joinRel(root, rel), size: st.size, mtimeMs: st.mtimeMs });
    });
    for (const d of dirs) await walk(d);
  };
  await walk(under);
  return out;
}

/**
 * What a path inside a source is now, by the scan's rule: without `followLinks`, only what is reached without a
 * symbolic link (else undefined, as if it were not there); with it, whatever the path leads to.
 */
export async function statForSource(root: string, rel: string, followLinks: boolean): Promise<Stats | undefined> {
  if (followLinks) return fs.stat(joinRel(root, rel)).catch(() => undefined);
  const realRoot = await fs.realpath(root).catch(() => undefined);
  return realRoot ? statNoLinks(realRoot, rel) : undefined;
}

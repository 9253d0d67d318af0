import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * How much of a directory's files the OS holds in its page cache, from util-linux's `fincore` (what a bench's first
 * searches find already in memory: at 1M chunks a hybrid search whose table was not cached took ~10 ms more at p50,
 * docs/benchmarks.md). Undefined where `fincore` is missing or fails (a bench figure, not a product one).
 */
export function pageCacheMb(dir: string): { resident_mb: number; total_mb: number } | undefined {
  const files = filesUnder(dir)
    .filter((f) => f.bytes > 0)
    .map((f) => f.path);
  if (files.length === 0) return { resident_mb: 0, total_mb: 0 };
  let resident = 0;
  let total = 0;
  try {
    // Many files per call, well under any argument limit.
    for (let i = 0; i < files.length; i += 500) {
      const out = execFileSync('fincore', ['--bytes', '--noheadings', '--raw', '--output', 'RES,SIZE', ...files.slice(i, i + 500)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      for (const line of out.split('\n')) {
        const [res, size] = line.trim().split(/\s+/).map(Number);
        if (Number.isFinite(res) && Number.isFinite(size)) {
          resident += res!;
          total += size!;
        }
      }
    }
  } catch {
    return undefined;
  }
  return { resident_mb: Math.round(resident / 1e6), total_mb: Math.round(total / 1e6) };
}

/** Every file in a directory tree, with its size; none for a directory that is not there. */
export function filesUnder(dir: string): Array<{ path: string; bytes: number }> {
  if (!fs.existsSync(dir)) return [];
  const out: Array<{ path: string; bytes: number }> = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push({ path: p, bytes: fs.statSync(p).size });
  }
  return out;
}

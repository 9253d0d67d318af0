import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../core/test-support.js';
import { pageCacheMb } from './page-cache.js';

const hasFincore = (() => {
  try {
    execFileSync('fincore', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('pageCacheMb', () => {
  it.skipIf(!hasFincore)('counts the bytes of a directory tree the OS holds in memory (a file just written is)', () => {
    const dir = tempDir('ragdesk-page-cache-');
    fs.mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a', 'b', 'data.bin'), Buffer.alloc(3_000_000, 7));
    fs.writeFileSync(path.join(dir, 'top.bin'), Buffer.alloc(2_000_000, 1));
    fs.writeFileSync(path.join(dir, 'empty'), '');
    const got = pageCacheMb(dir)!;
    expect(got.total_mb).toBe(5);
    expect(got.resident_mb).toBeGreaterThan(0);
    expect(got.resident_mb).toBeLessThanOrEqual(got.total_mb);
  });

  it('is zero for a directory that is not there', () => {
    expect(pageCacheMb(path.join(tempDir('ragdesk-page-cache-'), 'missing'))).toEqual({ resident_mb: 0, total_mb: 0 });
  });
});

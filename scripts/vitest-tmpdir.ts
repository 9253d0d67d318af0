import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Vitest global setup: every temporary directory of a test run goes under one directory of its own, removed when
 * the run ends. Tests make their data dirs, fixture models, scans and packed apps with `os.tmpdir()` (test-support
 * tempDir, mkdtemp); without this every run left its directories in /tmp (a developer machine had 4,527 of them, 3.1 GB).
 * TMPDIR is set before the test workers start, so they, and the servers and CLIs the tests spawn, inherit it.
 */
export function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-vitest-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}

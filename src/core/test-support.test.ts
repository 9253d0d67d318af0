import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './test-support.js';

describe('tempDir', () => {
  it("is made under the run's own temporary directory, which the run removes at its end (scripts/vitest-tmpdir.ts)", () => {
    const dir = tempDir();
    expect(fs.statSync(dir).isDirectory()).toBe(true);
    expect(path.dirname(dir)).toBe(os.tmpdir());
    expect(path.basename(os.tmpdir())).toMatch(/^ragdesk-vitest-/);
    expect(process.env.TMPDIR).toBe(os.tmpdir());
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirsPerTest } from '../test-support.js';
import { ExactStatsMark } from './exact-stats-mark.js';

const tmp = tempDirsPerTest('ragdesk-exact-mark-');

describe('ExactStatsMark', () => {
  it('holds from the version it was set at on, and not once cleared', () => {
    const dir = tmp();
    const mark = ExactStatsMark.in(dir, 'chunks__kb');
    expect(mark.holds(10)).toBe(false);
    mark.set(7);
    expect(fs.existsSync(path.join(dir, '.fts-exact-chunks__kb'))).toBe(true);
    expect(mark.holds(7)).toBe(true);
    expect(mark.holds(12)).toBe(true);
    // A table older than the record (restored from elsewhere) is not vouched for.
    expect(mark.holds(6)).toBe(false);
    // Another table's record is its own.
    expect(ExactStatsMark.in(dir, 'chunks__other').holds(12)).toBe(false);
    mark.clear();
    expect(mark.holds(12)).toBe(false);
    mark.clear(); // nothing to clear: fine
  });

  it('reads a torn or foreign file as absent, and a record it cannot write as a lost shortcut', () => {
    const dir = tmp();
    for (const body of ['', '{"version":', '{"version":"3"}', '{"version":2.5}', '[]']) {
      fs.writeFileSync(path.join(dir, '.fts-exact-chunks__kb'), body);
      expect(ExactStatsMark.in(dir, 'chunks__kb').holds(100), body).toBe(false);
    }
    // Its folder is a file: nothing can be written there, and upkeep must not fail over it.
    const blocked = path.join(dir, 'not-a-dir');
    fs.writeFileSync(blocked, '');
    const mark = ExactStatsMark.in(blocked, 'chunks__kb');
    expect(() => mark.set(3)).not.toThrow();
    expect(mark.holds(3)).toBe(false);
    // Without a folder (tables opened outside a store) there is no record at all.
    const none = ExactStatsMark.in(undefined, 'chunks__kb');
    none.set(1);
    expect(none.holds(1)).toBe(false);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { RagError } from '../../shared/errors.js';
import { hostileFiles } from './hostile-files.js';
import { ParsePool } from './pool/parse-pool.js';
import { parseBytes } from './registry.js';
import { fixture } from './test-support.js';

describe('a batch of hostile files through the parse pool', () => {
  const pool = new ParsePool({ size: 1 });
  afterAll(() => pool.close());

  it('gives every bad file its code and parses the rest, one after another in one worker pool', { timeout: 180_000 }, async () => {
    const outcomes: Record<string, unknown> = {};
    for (const f of hostileFiles({ encryptedPdf: fixture('encrypted.pdf') })) {
      try {
        const doc = await parseBytes({ data: f.data, filename: f.name }, { pool });
        outcomes[f.name] = { parsed: doc.parser, chars: doc.text.length };
        expect(f.expect, f.name).toBe('parsed');
      } catch (err) {
        expect(err, f.name).toBeInstanceOf(RagError);
        const e = err as RagError;
        outcomes[f.name] = { code: e.code, ...e.details };
        expect(f.expect, `${f.name}: ${e.message}`).not.toBe('parsed');
        if (f.expect === 'parsed') continue;
        expect(e.code, f.name).toBe(f.expect.code);
        if (f.expect.limit) expect(e.details?.limit, f.name).toBe(f.expect.limit);
        if (f.expect.reason) expect(e.details?.reason, f.name).toBe(f.expect.reason);
        expect(e.message, f.name).toContain(f.name);
      }
    }
    expect(outcomes['deep-nesting.html']).toMatchObject({ parsed: 'html' });
    expect(outcomes['single-line-12mb.txt']).toMatchObject({ parsed: 'text' });
    expect(outcomes['good.md']).toMatchObject({ parsed: 'markdown' });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets } from './logger.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-logs-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('logger', () => {
  it('writes JSON lines to a rotating file and never writes secrets', async () => {
    const log = createLogger({ dir, file: 'test.log', secrets: ['lock-token-abcdef123456'] });
    log.logger.info(
      {
        authorization: 'Bearer rdk_AAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        headers: { authorization: 'x' },
        key: 'rdk_BBBBBBBBBBBBBBBBBBBB',
        kb_id: 'alpha',
      },
      'call with rdk_CCCCCCCCCCCCCCCCCCCCCCCC and lock-token-abcdef123456',
    );
    log.addSecret('added-later-secret-999');
    log.logger.warn('later: added-later-secret-999');
    await log.close();
    const text = fs.readFileSync(path.join(dir, 'test.log'), 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, kb_id: 'alpha', authorization: '[redacted]', key: '[redacted]' });
    for (const secret of ['rdk_AAAA', 'rdk_BBBB', 'rdk_CCCC', 'lock-token-abcdef123456', 'added-later-secret-999'])
      expect(text).not.toContain(secret);
  });

  it('scrubs key- and bearer-shaped strings', () => {
    expect(scrubSecrets('key rdk_abcdefghijklmnopqrstuvwxyz012345 here')).toBe('key rdk_[redacted] here');
    expect(scrubSecrets('Authorization: Bearer abc.def-ghi_jkl')).toBe('Authorization: Bearer [redacted]');
  });
});

import { describe, expect, it } from 'vitest';
import { errorCode, openTestCore } from '../test-support.js';
import { limitsFromEnv } from './env-limits.js';

describe('limitsFromEnv', () => {
  it('reads size limits in MiB and refuses nonsense', () => {
    expect(limitsFromEnv({ RAGDESK_MAX_STREAM_MB: '2048', RAGDESK_MAX_FILE_MB: '0.5' })).toEqual({
      maxStreamBytes: 2048 * 1024 * 1024,
      maxFileBytes: 512 * 1024,
    });
    expect(limitsFromEnv({})).toEqual({});
    expect(() => limitsFromEnv({ RAGDESK_STREAM_FROM_MB: 'lots' })).toThrow(/RAGDESK_STREAM_FROM_MB/);
  });

  it('sets the limits of a core opened in this environment (explicit options win)', async () => {
    process.env.RAGDESK_MAX_STREAM_MB = '300';
    try {
      const core = await openTestCore();
      expect(core.ctx.options.maxStreamBytes).toBe(300 * 1024 * 1024);
      await core.close();
      const explicit = await openTestCore({ maxStreamBytes: 5 });
      expect(explicit.ctx.options.maxStreamBytes).toBe(5);
      await explicit.close();
      process.env.RAGDESK_MAX_STREAM_MB = '-1';
      expect(await errorCode(openTestCore())).toBe('invalid_parameter');
    } finally {
      delete process.env.RAGDESK_MAX_STREAM_MB;
    }
  });
});

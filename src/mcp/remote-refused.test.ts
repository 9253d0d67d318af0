import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { RagError } from '../shared/errors.js';
import { isLinkFailure, refusedForNow } from './remote-backend.js';

describe('the stdio bridge and a 429 from the owner', () => {
  it('is busy with the owner message, and not a broken link (the session is kept)', () => {
    const err = new StreamableHTTPError(
      429,
      'Error POSTing to endpoint: {"error":{"code":"busy","message":"rate limit exceeded for key \\"agent\\"; retry in 1s"}}',
    );
    const refused = refusedForNow(err);
    expect(refused).toBeInstanceOf(RagError);
    expect(refused).toMatchObject({ code: 'busy', message: 'rate limit exceeded for key "agent"; retry in 1s' });
    expect(isLinkFailure(refused)).toBe(false);
    expect(refusedForNow(new StreamableHTTPError(500, 'Error POSTing to endpoint: boom'))).toBeUndefined();
    expect(isLinkFailure(new StreamableHTTPError(500, 'boom'))).toBe(true);
  });
});

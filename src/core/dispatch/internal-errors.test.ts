import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { OpSpec } from '../../shared/contract/op.js';
import { RagError } from '../../shared/errors.js';
import { OWNER_SCOPE } from '../auth/scope.js';
import { Dispatcher } from './dispatcher.js';
import { internalErrorMiddleware, type InternalErrorEntry } from './internal-errors.js';

const Err = z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() });
const toy = {
  boom: { input: z.object({}), output: z.object({}), kind: 'read', summary: '' },
  denied: { input: z.object({}), output: z.object({}), kind: 'read', summary: '' },
  batch: {
    input: z.object({}),
    output: z.object({ results: z.array(z.object({ ok: z.boolean(), error: Err.optional() })) }),
    kind: 'read',
    summary: '',
  },
} satisfies Record<string, OpSpec>;

function dispatcher(logged: InternalErrorEntry[]) {
  const d = new Dispatcher(toy, {
    boom: async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x') at /opt/ragdesk/out/main/chunks/ingest.js:12:5");
    },
    denied: async () => {
      throw new RagError('permission_denied', 'this key may not write to "a"');
    },
    batch: async () => ({
      results: [
        { ok: true },
        { ok: false, error: { code: 'internal', message: 'EACCES: permission denied, open /home/ann/.config/ragdesk/lance/x' } },
        { ok: false, error: { code: 'invalid_parameter', message: 'content must not be empty' } },
      ],
    }),
  });
  d.use(internalErrorMiddleware(() => (e) => logged.push(e)));
  return d;
}

describe('internal errors', () => {
  it('thrown: logged with a stack, answered with a reference only; other codes pass as they are', async () => {
    const logged: InternalErrorEntry[] = [];
    const d = dispatcher(logged);
    const err = (await d.dispatch('boom', {}, OWNER_SCOPE).catch((e: unknown) => e)) as RagError;
    expect(err).toBeInstanceOf(RagError);
    expect(err.code).toBe('internal');
    expect(err.message).not.toMatch(/\/opt\/ragdesk|Cannot read/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ ref: err.details?.ref, method: 'boom', message: expect.stringContaining('/opt/ragdesk') });
    expect(logged[0]!.stack).toContain('TypeError');
    const denied = (await d.dispatch('denied', {}, OWNER_SCOPE).catch((e: unknown) => e)) as RagError;
    expect(denied.message).toBe('this key may not write to "a"');
    expect(logged).toHaveLength(1);
  });

  it('inside a result (a batch item that failed): the same, the rest untouched', async () => {
    const logged: InternalErrorEntry[] = [];
    const out = (await dispatcher(logged).dispatch('batch', {}, OWNER_SCOPE)) as z.infer<typeof toy.batch.output>;
    expect(out.results[0]).toEqual({ ok: true });
    expect(out.results[1]!.error!.message).toMatch(/^internal error \(ref [0-9a-f]{8}\)/);
    expect(JSON.stringify(out)).not.toContain('/home/ann');
    expect(out.results[2]!.error).toEqual({ code: 'invalid_parameter', message: 'content must not be empty' });
    expect(logged.map((l) => l.message)).toEqual(['EACCES: permission denied, open /home/ann/.config/ragdesk/lance/x']);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { RagError } from '../../shared/errors.js';
import { createHttpClient } from './http-client.js';

function fakeFetch(status: number, body: unknown) {
  return vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

describe('HTTP RagClient', () => {
  it('POSTs /api/<method> with the bearer token and a JSON body', async () => {
    const f = fakeFetch(200, []);
    const client = createHttpClient({ baseUrl: 'http://127.0.0.1:7300/', getToken: () => 'tok', fetchImpl: f as unknown as typeof fetch });
    expect(await client.listKbs({})).toEqual([]);
    const [url, init] = f.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:7300/api/listKbs');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(init?.body).toBe('{}');
  });

  it('rebuilds error envelopes as RagErrors with their code', async () => {
    const client = createHttpClient({
      getToken: () => 't',
      fetchImpl: fakeFetch(404, { error: { code: 'kb_not_found', message: 'no such kb' } }) as unknown as typeof fetch,
    });
    const err = await client.getKb({ kb_id: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RagError);
    expect(err).toMatchObject({ code: 'kb_not_found', message: 'no such kb' });
  });

  it('signs out on 401 and maps odd answers to stable codes', async () => {
    const onUnauthorized = vi.fn();
    const client = createHttpClient({
      getToken: () => 't',
      onUnauthorized,
      fetchImpl: fakeFetch(401, { error: { code: 'permission_denied', message: 'bad key' } }) as unknown as typeof fetch,
    });
    await expect(client.listKbs({})).rejects.toMatchObject({ code: 'permission_denied' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    const weird = createHttpClient({ getToken: () => 't', fetchImpl: fakeFetch(502, 'gateway') as unknown as typeof fetch });
    await expect(weird.listKbs({})).rejects.toMatchObject({ code: 'internal' });
    const down = createHttpClient({
      getToken: () => 't',
      fetchImpl: (async () => {
        throw new TypeError('fetch failed');
      }) as unknown as typeof fetch,
    });
    await expect(down.listKbs({})).rejects.toMatchObject({ code: 'internal', message: /cannot reach/ });
  });

  it('takes a 200 answer as the result even when it has a field named error (a model change carries one)', async () => {
    const status = { kb_id: 'k', change: null, error: 'the last change failed' };
    const client = createHttpClient({ getToken: () => 't', fetchImpl: fakeFetch(200, status) as unknown as typeof fetch });
    expect(await client.modelChangeStatus({ kb_id: 'k' })).toEqual(status);
  });
});

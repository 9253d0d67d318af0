import { ragClient, type RagClient } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { errorFromEnvelope } from './errors.js';

export interface HttpClientOptions {
  /** Origin of the ragdesk server, e.g. `http://127.0.0.1:7300` (default: the page's origin). */
  baseUrl?: string;
  getToken: () => string | null;
  /** Called when the server answers 401: the token is missing, wrong or revoked. */
  onUnauthorized?: () => void;
  fetchImpl?: typeof fetch;
}

/** `POST /api/<method>` with a JSON body and `Authorization: Bearer <token>`; answers JSON or `{error:{code,message}}`. */
export function createHttpClient(options: HttpClientOptions): RagClient {
  const base = (options.baseUrl ?? '').replace(/\/+$/, '');
  const doFetch = options.fetchImpl ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  async function call(method: string, input: unknown): Promise<unknown> {
    const token = options.getToken();
    let res: Response;
    try {
      res = await doFetch(`${base}/api/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(input ?? {}),
      });
    } catch (err) {
      throw new RagError('internal', `cannot reach the ragdesk server: ${err instanceof Error ? err.message : String(err)}`);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    if (res.status === 401) options.onUnauthorized?.();
    // Success is the HTTP status: some results carry a field named `error` of their own (a model change's last error).
    if (!res.ok) {
      const envelope = body && typeof body === 'object' && 'error' in body ? (body as { error: unknown }).error : undefined;
      const fallback =
        res.status === 401 || res.status === 403 ? 'permission_denied' : res.status === 404 ? 'invalid_parameter' : 'internal';
      throw errorFromEnvelope(envelope ?? `HTTP ${res.status} ${res.statusText}`, fallback);
    }
    return body;
  }

  return ragClient(call);
}

/** Check a token before keeping it: any cheap read the key may make. */
export async function verifyToken(baseUrl: string | undefined, token: string): Promise<void> {
  const client = createHttpClient({ getToken: () => token, ...(baseUrl ? { baseUrl } : {}) });
  await client.listKbs({});
}

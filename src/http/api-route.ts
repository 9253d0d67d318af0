import type { IncomingMessage, ServerResponse } from 'node:http';
import { scopeOf, type Principal } from '../core/auth/key-store.js';
import type { Core } from '../core/core.js';
import type { Metrics } from '../mcp/metrics.js';
import { contract, type MethodName, type RagClient } from '../shared/contract/index.js';
import { RagError, toErrorEnvelope, type ErrorCode } from '../shared/errors.js';
import { readJson, sendError, sendJson } from './body.js';

/** Base64 uploads of up to the core's file limit (100 MB) plus JSON overhead. */
export const API_BODY_LIMIT = 160 * 1024 * 1024;

/** HTTP status for each stable error code. */
export const STATUS_OF: Record<ErrorCode, number> = {
  permission_denied: 403,
  kb_not_found: 404,
  document_not_found: 404,
  document_already_exists: 409,
  invalid_parameter: 400,
  unsupported_format: 415,
  parse_failed: 422,
  too_large: 413,
  model_unavailable: 503,
  busy: 503,
  internal: 500,
};

/**
 * Calls only the owner may make even where the contract's kind would let a key through: they read files on
 * the server's disk by path, which would hand a key every file this user can read.
 */
function ownerOnly(method: MethodName, input: unknown): boolean {
  if (method === 'addFile') return true;
  return (
    method === 'preview' &&
    typeof input === 'object' &&
    input !== null &&
    'path' in input &&
    (input as { path?: unknown }).path !== undefined
  );
}

const isMethod = (name: string): name is MethodName => Object.hasOwn(contract, name);

/** `POST /api/:method`: the contract over HTTP, generated from its list, with the caller's rights. */
export async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  principal: Principal,
  core: Core,
  metrics?: Metrics,
): Promise<void> {
  if (!isMethod(method)) return sendError(res, 404, 'invalid_parameter', `unknown method "${method}"`);
  if (req.method !== 'POST') return sendError(res, 405, 'invalid_parameter', 'use POST with a JSON body', { Allow: 'POST' });
  const started = performance.now();
  let code: string | null = null;
  try {
    const input = await readJson(req, API_BODY_LIMIT);
    const scope = scopeOf(principal, () => core.ctx.store.registry.list().map((kb) => kb.kb_id));
    if (!scope.admin && ownerOnly(method, input))
      throw new RagError('permission_denied', `${method} with a server-side path needs the owner's rights`);
    const client: RagClient = scope.admin ? core.client : core.clientFor(scope);
    const fn = client[method] as (input: unknown) => Promise<unknown>;
    const output = await fn(input);
    sendJson(res, 200, output);
  } catch (err) {
    const env = toErrorEnvelope(err);
    code = env.code;
    const status = (err as { status?: number }).status ?? STATUS_OF[env.code] ?? 500;
    sendError(res, status, env.code, env.message, {}, env.code === 'internal' ? undefined : env.details);
  } finally {
    metrics?.api.observe(method, (performance.now() - started) / 1000, code);
  }
}

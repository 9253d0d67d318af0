import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../core/auth/scope.js';
import type { Core } from '../core/core.js';
import { isMethodName } from '../shared/contract/index.js';
import { toErrorEnvelope, type ErrorCode } from '../shared/errors.js';
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
 * `POST /api/:method`: the contract over HTTP. The core's dispatcher parses, authorises (with the caller's scope)
 * and checks the output; this adapter only carries JSON and maps error codes to statuses.
 */
export async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  principal: Principal,
  core: Core,
): Promise<void> {
  if (!isMethodName(method)) return sendError(res, 404, 'invalid_parameter', `unknown method "${method.slice(0, 100)}"`);
  if (req.method !== 'POST') return sendError(res, 405, 'invalid_parameter', 'use POST with a JSON body', { Allow: 'POST' });
  try {
    const input = await readJson(req, API_BODY_LIMIT);
    sendJson(res, 200, await core.dispatch(method, input, core.scopeOf(principal)));
  } catch (err) {
    const env = toErrorEnvelope(err);
    const status = (err as { status?: number }).status ?? STATUS_OF[env.code] ?? 500;
    sendError(res, status, env.code, env.message, {}, env.code === 'internal' ? undefined : env.details);
  }
}

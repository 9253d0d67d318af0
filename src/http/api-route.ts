import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallerScope, Principal } from '../core/auth/scope.js';
import type { Core } from '../core/core.js';
import { contract, isMethodName } from '../shared/contract/index.js';
import { RagError, toErrorEnvelope, type ErrorCode } from '../shared/errors.js';
import { HttpError, readJson, refuse, sendError, sendJson } from './body.js';
import type { InFlight } from './auth.js';
import { principalId } from './auth.js';

/** The body of most /api methods: a query, ids, a filter, a small document (1 MiB). */
export const API_BODY_LIMIT = 1024 * 1024;
/** Base64 uploads of up to the core's file limit (100 MB) plus JSON overhead. */
export const UPLOAD_BODY_LIMIT = 140 * 1024 * 1024;
/** Text documents and batches of them (the core caps a document's text at 20 M characters). */
export const DOCUMENTS_BODY_LIMIT = 64 * 1024 * 1024;

/** Methods whose body may be larger than API_BODY_LIMIT, and how large. */
export const LARGE_BODY_LIMITS: Readonly<Record<string, number>> = {
  uploadFile: UPLOAD_BODY_LIMIT,
  preview: UPLOAD_BODY_LIMIT,
  addDocument: DOCUMENTS_BODY_LIMIT,
  addDocumentsBatch: DOCUMENTS_BODY_LIMIT,
};

export function bodyLimitOf(method: string): number {
  return Object.hasOwn(LARGE_BODY_LIMITS, method) ? LARGE_BODY_LIMITS[method]! : API_BODY_LIMIT;
}

/**
 * What can be refused before a byte of the body is read: an owner-only method, or a write with a key that may
 * write nowhere (the dispatcher checks the KBs named once the body is parsed).
 */
export function refuseBeforeBody(method: string, scope: CallerScope): RagError | undefined {
  if (scope.owner || !isMethodName(method)) return undefined;
  const spec = contract[method];
  if (spec.kind === 'admin') return new RagError('permission_denied', `${method} needs the owner's rights`);
  if (spec.kind === 'write' && scope.write.size === 0)
    return new RagError('permission_denied', `this key may not write to any knowledge base`);
  if (spec.keyNeedsKb && scope.read.size === 0)
    return new RagError('permission_denied', `${method} needs a knowledge base this key may read`);
  return undefined;
}

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
  uploads?: InFlight,
): Promise<void> {
  if (!isMethodName(method)) return refuse(req, res, 404, 'invalid_parameter', `unknown method "${method.slice(0, 100)}"`);
  if (req.method !== 'POST') return refuse(req, res, 405, 'invalid_parameter', 'use POST with a JSON body', { Allow: 'POST' });
  let release: (() => void) | undefined;
  try {
    // Rights and size first, from the method alone: a caller without the right, or with a body over its method's
    // limit, is answered before anything is buffered.
    const scope = core.scopeOf(principal);
    const early = refuseBeforeBody(method, scope);
    if (early) return refuse(req, res, STATUS_OF[early.code], early.code, early.message);
    const limit = bodyLimitOf(method);
    if (limit > API_BODY_LIMIT && uploads && principal.kind === 'key') {
      release = uploads.enter(principalId(principal));
      if (!release)
        return refuse(
          req,
          res,
          429,
          'busy',
          `key "${principal.name}" already has ${uploads.limit} uploads in progress; retry when one is done`,
          {
            'Retry-After': '1',
          },
        );
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > limit)
      return refuse(req, res, 413, 'too_large', `the body of ${method} is limited to ${limit} bytes`, {}, { limit });
    const input = await readJson(req, limit);
    sendJson(res, 200, await core.dispatch(method, input, scope));
  } catch (err) {
    if (err instanceof HttpError) return refuse(req, res, err.status, err.code, err.message, err.headers);
    const env = toErrorEnvelope(err);
    const status = (err as { status?: number }).status ?? STATUS_OF[env.code] ?? 500;
    sendError(res, status, env.code, env.message, {}, env.code === 'internal' ? undefined : env.details);
  } finally {
    release?.();
  }
}

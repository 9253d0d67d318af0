import { isErrorCode, RagError, type ErrorCode } from '../../shared/errors.js';

/** Rebuild an error that crossed a boundary (HTTP body, IPC envelope) as a RagError with a stable code. */
export function errorFromEnvelope(raw: unknown, fallback: ErrorCode = 'internal'): RagError {
  if (raw && typeof raw === 'object') {
    const e = raw as { code?: unknown; message?: unknown; details?: unknown };
    const code = isErrorCode(e.code) ? e.code : fallback;
    const message = typeof e.message === 'string' && e.message ? e.message : String(e.code ?? code);
    const details = e.details && typeof e.details === 'object' ? (e.details as Record<string, unknown>) : undefined;
    return new RagError(code, message, details ? { details } : undefined);
  }
  return new RagError(fallback, typeof raw === 'string' && raw ? raw : 'unknown error');
}

/** Any thrown value as `{code, message}` for display. */
export function describeError(err: unknown): { code: string; message: string } {
  if (err instanceof RagError) return { code: err.code, message: err.message };
  if (err && typeof err === 'object' && 'code' in err && 'message' in err) {
    return { code: String((err as { code: unknown }).code), message: String((err as { message: unknown }).message) };
  }
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

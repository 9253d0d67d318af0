import { isErrorCode, RagError, type ErrorCode } from '../../shared/errors.js';
import type { T } from '../i18n/index.js';
import type { Formatters } from '../i18n/format.js';

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

export interface DescribedError {
  code: string;
  /** The server's (English) message: shown as the detail under the localised sentence, never alone. */
  message: string;
  details?: Record<string, unknown>;
}

/** Any thrown value as `{code, message, details?}`. */
export function describeError(err: unknown): DescribedError {
  if (err instanceof RagError) return { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
  if (err && typeof err === 'object' && 'code' in err && 'message' in err) {
    const e = err as { code: unknown; message: unknown; details?: unknown };
    const details = e.details && typeof e.details === 'object' ? { details: e.details as Record<string, unknown> } : {};
    return { code: String(e.code), message: String(e.message), ...details };
  }
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

/** What the UI knows about the failed call, filling in what the server's details lack (e.g. the file being added). */
export interface ErrorContext {
  file?: string;
}

export interface LocalizedError {
  code: string;
  /** One sentence in the UI language, with the server's facts (file, limit, ids) as parameters. */
  text: string;
  /** The server's own message, for the curious and for bug reports. */
  detail: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const baseName = (p: string) => p.split(/[\\/]/).pop() || p;

/**
 * The transports' own failure to get an answer (no server, no main process): `details.reason: 'unreachable'`, or the
 * sentences the HTTP and IPC clients of this renderer throw today.
 */
function unreachable(details: Record<string, unknown>, message: string): boolean {
  return details.reason === 'unreachable' || /^(cannot reach the ragdesk server|the desktop app did not answer)\b/.test(message);
}

function sentence(code: string, details: Record<string, unknown>, message: string, ctx: ErrorContext, t: T, f: Formatters): string {
  const file = str(details.file) ?? str(details.filename) ?? ctx.file;
  const name = file ? baseName(file) : undefined;
  const kb = str(details.kb_id);
  const doc = str(details.doc_id);
  switch (code) {
    case 'permission_denied':
      return t('errors.permission_denied');
    case 'kb_not_found':
      return kb ? t('errors.kb_not_found_named', { kb }) : t('errors.kb_not_found');
    case 'document_not_found':
      return doc ? t('errors.document_not_found_named', { doc }) : t('errors.document_not_found');
    case 'document_already_exists':
      return doc || name ? t('errors.document_already_exists_named', { doc: doc ?? name ?? '' }) : t('errors.document_already_exists');
    case 'invalid_parameter': {
      const field = str(details.field);
      if (field) return t('errors.invalid_filter', { field });
      const key = str(details.name);
      if (key) return t('errors.key_exists', { name: key });
      return t('errors.invalid_parameter');
    }
    case 'unsupported_format':
      return name ? t('errors.unsupported_format_named', { file: name }) : t('errors.unsupported_format');
    case 'parse_failed':
      if (details.reason === 'encrypted') return name ? t('errors.encrypted_named', { file: name }) : t('errors.encrypted');
      return name ? t('errors.parse_failed_named', { file: name }) : t('errors.parse_failed');
    case 'too_large': {
      const limit = num(details.limit);
      const bytes = num(details.bytes);
      if (name && limit !== undefined && bytes !== undefined)
        return t('errors.too_large_sized', { file: name, size: f.bytes(bytes), limit: f.bytes(limit) });
      return name ? t('errors.too_large_named', { file: name }) : t('errors.too_large');
    }
    case 'model_unavailable':
      return t('errors.model_unavailable');
    case 'busy':
      return t('errors.busy');
    default:
      return unreachable(details, message) ? t('errors.unreachable') : t('errors.internal');
  }
}

/** A localised sentence for an error's stable code, keeping the server's facts as parameters and its message as detail. */
export function localizeError(err: unknown, t: T, f: Formatters, ctx: ErrorContext = {}): LocalizedError {
  const e = describeError(err);
  return { code: e.code, text: sentence(e.code, e.details ?? {}, e.message, ctx, t, f), detail: e.message };
}

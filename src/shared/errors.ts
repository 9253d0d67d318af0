/** Stable error codes that cross every boundary (CLI, MCP, HTTP, IPC) as `{code, message, details?}`. */
export const ERROR_CODES = [
  'permission_denied',
  'kb_not_found',
  'document_not_found',
  'document_already_exists',
  'invalid_parameter',
  'unsupported_format',
  'parse_failed',
  'too_large',
  'model_unavailable',
  'busy',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorEnvelope {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** A domain error: a stable code, a human message, optional details and the underlying cause. */
export class RagError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options?: { details?: Record<string, unknown>; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RagError';
    this.code = code;
    if (options?.details) this.details = options.details;
  }

  toEnvelope(): ErrorEnvelope {
    return this.details ? { code: this.code, message: this.message, details: this.details } : { code: this.code, message: this.message };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Any thrown value as an envelope; unknown errors become `internal` without leaking stack traces. */
export function toErrorEnvelope(err: unknown): ErrorEnvelope {
  if (err instanceof RagError) return err.toEnvelope();
  if (err && typeof err === 'object' && 'code' in err && isErrorCode((err as { code: unknown }).code)) {
    const e = err as { code: ErrorCode; message?: unknown; details?: Record<string, unknown> };
    return { code: e.code, message: String(e.message ?? e.code), ...(e.details ? { details: e.details } : {}) };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}

/** Rebuild a RagError from an envelope received over a boundary (IPC, HTTP, worker). */
export function fromErrorEnvelope(env: ErrorEnvelope): RagError {
  return new RagError(env.code, env.message, env.details ? { details: env.details } : undefined);
}

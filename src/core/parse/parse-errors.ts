import { RagError } from '../../shared/errors.js';

/** How errors name a file: its name, or a neutral phrase when the bytes came without one. */
export function fileLabel(filename: string | undefined): string {
  return filename ? `"${filename}"` : 'the document';
}

function causeMessage(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  return typeof cause === 'string' ? cause : '';
}

/**
 * A `parse_failed` error that names the file. `reason` is a short stable word (`encrypted`, `corrupt`,
 * `invalid_docx`...) that also lands in `details.reason`.
 */
export function parseFailed(filename: string | undefined, reason: string, message: string, cause?: unknown): RagError {
  const because = causeMessage(cause);
  const text = `Could not parse ${fileLabel(filename)}: ${message}${because && !message.includes(because) ? ` (${because})` : ''}`;
  return new RagError('parse_failed', text, {
    details: { reason, ...(filename ? { file: filename } : {}) },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** An `unsupported_format` error that names the file and what it looked like. */
export function unsupportedFormat(filename: string | undefined, detected?: string): RagError {
  const what = detected ? ` (looks like ${detected})` : '';
  return new RagError(
    'unsupported_format',
    `Unsupported file format: ${fileLabel(filename)}${what}. Supported: text, Markdown, HTML, PDF, Word (DOCX), ODT, RTF, EPUB, spreadsheets (XLSX, ODS, CSV), slides (PPTX, ODP) and source code.`,
    { details: { ...(filename ? { file: filename } : {}), ...(detected ? { detected } : {}) } },
  );
}

import { concealInternal, stderrInternalLog } from '../core/dispatch/internal-errors.js';
import { RagError } from '../shared/errors.js';

/** Exit codes scripts can rely on. */
export const EXIT = { ok: 0, error: 1, usage: 2, partial: 3 } as const;

export interface GlobalOptions {
  dataDir?: string;
  json?: boolean;
  download?: boolean;
}

/** Human output goes to stdout; progress and errors to stderr; `--json` prints exactly one JSON document. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLine(line = ''): void {
  process.stdout.write(`${line}\n`);
}

export function printTable(rows: Array<Record<string, unknown>>, columns: string[]): void {
  if (rows.length === 0) return;
  const cell = (v: unknown) => (v === undefined || v === null ? '' : String(v)).replace(/\s+/g, ' ');
  const widths = columns.map((c) => Math.min(60, Math.max(c.length, ...rows.map((r) => cell(r[c]).length))));
  const fmt = (vals: string[]) =>
    vals.map((v, i) => (v.length > widths[i]! ? `${v.slice(0, widths[i]! - 1)}…` : v.padEnd(widths[i]!))).join('  ');
  printLine(fmt(columns.map((c) => c.toUpperCase())));
  for (const r of rows) printLine(fmt(columns.map((c) => cell(r[c]))));
}

/**
 * Report an error (as JSON on stdout with --json, else on stderr) and return the exit code. An unexpected failure
 * (not a RagError: a bug, a file that would not parse) is answered like every other door answers it, `internal`
 * with a reference, and its detail (message, paths, stack) goes to stderr under that reference; errors with a
 * stable code, and internal errors the owner process already logged, are shown as they are.
 */
export function reportError(err: unknown, json: boolean | undefined, command = 'ragdesk'): number {
  const env = err instanceof RagError ? err.toEnvelope() : concealInternal(err, command, stderrInternalLog);
  if (json) printJson({ error: env });
  else process.stderr.write(`error [${env.code}]: ${env.message}\n`);
  return env.code === 'invalid_parameter' ? EXIT.usage : EXIT.error;
}

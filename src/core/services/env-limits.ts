import { RagError } from '../../shared/errors.js';
import type { CoreOptions } from './context.js';

const MB = 1024 * 1024;

/** Size limits a user may set without rebuilding: environment variable → option, in MiB (file sizes). */
const LIMITS = {
  RAGDESK_MAX_FILE_MB: 'maxFileBytes',
  RAGDESK_MAX_STREAM_MB: 'maxStreamBytes',
  RAGDESK_STREAM_FROM_MB: 'streamFromBytes',
} as const;

/**
 * The size limits set in the environment (for every entry point: the app, `serve`, `mcp`, the CLI). A value that
 * is not a positive number is refused at start rather than ignored.
 */
export function limitsFromEnv(env: NodeJS.ProcessEnv): Partial<Pick<CoreOptions, (typeof LIMITS)[keyof typeof LIMITS]>> {
  const out: Partial<Record<(typeof LIMITS)[keyof typeof LIMITS], number>> = {};
  for (const [name, option] of Object.entries(LIMITS) as Array<[keyof typeof LIMITS, (typeof LIMITS)[keyof typeof LIMITS]]>) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    const mb = Number(raw);
    if (!Number.isFinite(mb) || mb <= 0) throw new RagError('invalid_parameter', `${name} must be a positive number of MiB, not "${raw}"`);
    out[option] = Math.round(mb * MB);
  }
  return out;
}

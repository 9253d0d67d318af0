import type { z } from 'zod';
import { RagError } from '../../shared/errors.js';

/** Validate an input with its contract schema; failures are `invalid_parameter` naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
  throw new RagError('invalid_parameter', message, {
    details: { issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) },
    cause: parsed.error,
  });
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RagError } from '../../../shared/errors.js';

/**
 * Where the parse worker script is, relative to the module that asks (this file, or the bundle chunk it was
 * bundled into), as for the embedding worker (embed/worker-path.ts):
 * - `./parse-worker.js`: next to a bundle entry (`out/main/index.js`, `out/main/cli.js`) or a tsc build;
 * - `../parse-worker.js`: this code inlined into a shared chunk under `out/main/chunks/`;
 * - `./parse-worker.ts`: running from the TypeScript sources (vitest, tsx).
 */
export function parseWorkerCandidates(from: string | URL = import.meta.url): string[] {
  const here = path.dirname(typeof from === 'string' && !from.startsWith('file:') ? from : fileURLToPath(from));
  return [path.join(here, 'parse-worker.js'), path.join(here, '..', 'parse-worker.js'), path.join(here, 'parse-worker.ts')];
}

export function resolveParseWorkerPath(from: string | URL = import.meta.url): string {
  const candidates = parseWorkerCandidates(from);
  const found = candidates.find((c) => existsSync(c));
  if (!found) {
    throw new RagError('internal', `the parse worker script was not found (looked for ${candidates.join(', ')})`, {
      details: { candidates },
    });
  }
  return found;
}

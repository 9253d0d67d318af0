import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RagError } from '../../../shared/errors.js';

/**
 * Where a pool's worker script `name` is, relative to the module that asks (the module that runs the pool, or the
 * bundle chunk it was bundled into), as for the embedding worker (embed/worker-path.ts):
 * - `./<name>.js`: next to a bundle entry (`out/main/index.js`, `out/main/cli.js`) or a tsc build;
 * - `../<name>.js`: that code inlined into a shared chunk under `out/main/chunks/`;
 * - `./<name>.ts`: running from the TypeScript sources (vitest, tsx).
 */
export function workerScriptCandidates(name: string, from: string | URL): string[] {
  const here = path.dirname(typeof from === 'string' && !from.startsWith('file:') ? from : fileURLToPath(from));
  return [path.join(here, `${name}.js`), path.join(here, '..', `${name}.js`), path.join(here, `${name}.ts`)];
}

/** The first existing candidate (workerScriptCandidates); RagError('internal') when none exists. */
export function resolveWorkerScript(name: string, from: string | URL): string {
  const candidates = workerScriptCandidates(name, from);
  const found = candidates.find((c) => existsSync(c));
  if (!found) {
    throw new RagError('internal', `the ${name} script was not found (looked for ${candidates.join(', ')})`, {
      details: { candidates },
    });
  }
  return found;
}

/** The parse worker's candidates, next to this module (see workerScriptCandidates). */
export function parseWorkerCandidates(from: string | URL = import.meta.url): string[] {
  return workerScriptCandidates('parse-worker', from);
}

export function resolveParseWorkerPath(from: string | URL = import.meta.url): string {
  return resolveWorkerScript('parse-worker', from);
}

import fs from 'node:fs/promises';
import path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { RagError, type ErrorEnvelope } from '../../shared/errors.js';

export interface FileTarget {
  /** Absolute path. */
  file: string;
  /** doc_id: path relative to the folder it was found in (posix separators), or the file name. */
  doc_id: string;
}

export interface FileOutcome {
  file: string;
  doc_id: string;
  ok: boolean;
  status?: 'added' | 'updated' | 'skipped';
  chunks?: number;
  reason?: string;
  warnings?: string[];
  error?: ErrorEnvelope;
}

const toPosix = (p: string) => p.split(path.sep).join('/');

/** Expand files, folders (recursively, skipping dot-files) and glob patterns into files, each once. */
export async function expandPaths(inputs: string[], options: { exclude?: string[] } = {}): Promise<FileTarget[]> {
  const out = new Map<string, FileTarget>();
  const ignore = ['**/.*', '**/.*/**', '**/node_modules/**', ...(options.exclude ?? [])];
  for (const input of inputs) {
    if (isDynamicPattern(input)) {
      const base = path.resolve(input.split(/[*?[{]/)[0]!.replace(/[^/\\]*$/, '') || '.');
      for (const f of await glob(input, { absolute: true, onlyFiles: true, ignore })) {
        out.set(f, { file: f, doc_id: toPosix(path.relative(base, f)) });
      }
      continue;
    }
    const abs = path.resolve(input);
    const stat = await fs.stat(abs).catch(() => undefined);
    if (!stat) throw new RagError('invalid_parameter', `no such file or folder: ${input}`);
    if (stat.isDirectory()) {
      const files = await glob('**/*', { cwd: abs, absolute: true, onlyFiles: true, ignore });
      for (const f of files.sort()) out.set(f, { file: f, doc_id: toPosix(path.relative(abs, f)) });
    } else {
      out.set(abs, { file: abs, doc_id: path.basename(abs) });
    }
  }
  return [...out.values()];
}

import { InvalidArgumentError, type Command } from 'commander';
import type { ChunkingOverride } from '../../shared/contract/index.js';
import type { GlobalOptions } from '../output.js';

export function intArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('not an integer');
  return n;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The program's global options as seen from a subcommand. */
export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

export function chunkingOptions(cmd: Command): Command {
  return cmd
    .option('--strategy <name>', 'chunking: whole | sentence | token | markdown | semantic')
    .option('--chunk-size <tokens>', 'chunk size in model tokens', intArg)
    .option('--chunk-overlap <tokens>', 'overlap in model tokens', intArg);
}

export function chunkingFrom(o: { strategy?: string; chunkSize?: number; chunkOverlap?: number }): ChunkingOverride | undefined {
  const c: Record<string, unknown> = {};
  if (o.strategy) c.strategy = o.strategy;
  if (o.chunkSize !== undefined) c.chunk_size = o.chunkSize;
  if (o.chunkOverlap !== undefined) c.chunk_overlap = o.chunkOverlap;
  return Object.keys(c).length ? (c as ChunkingOverride) : undefined;
}

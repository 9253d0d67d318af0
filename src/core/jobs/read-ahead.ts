import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import type { CoreContext } from '../services/context.js';
import { parseFileBytes } from '../services/document-service.js';
import type { ParsedDocument } from '../parse/types.js';
import { sha256 } from '../util/hash.js';
import { statNoLinks } from '../util/inside.js';
import type { JobItem, JobOptions } from './journal.js';

/**
 * How examine.ts gets at a file: its stat, bytes, their hash, the parse and the real path. Each is asked for once,
 * in that order. `fileIo` does each when asked; `ReadAhead` starts them for the files after the one being
 * examined, so that a folder of small files is not read one await at a time: each file took a stat, four hops for
 * its bytes, a parse-pool round trip and a realpath one after the other, and `ragdesk add` of 10,000 notes kept its
 * main thread idle ~70 % of the time.
 */
export interface FileIo {
  stat(): Promise<Stats | undefined>;
  read(): Promise<Buffer>;
  hash(data: Buffer): string;
  parse(data: Buffer): Promise<ParsedDocument>;
  realpath(): Promise<string>;
}

/** Files read ahead of the one being examined, at most. */
export const READ_AHEAD_FILES = 8;
/**
 * Only files up to this size are read ahead (so at most 512 KiB are held): for larger ones the parse, not the hops,
 * sets the pace. Measured on 20 MB of Markdown in 256 KiB files into a KB with a model, reading them ahead too made
 * the `add` ~2 % slower: the embedding worker had the second core (see `large`).
 */
export const READ_AHEAD_MAX_BYTES = 64 * 1024;
/** With `large` set, the next this many files are read ahead up to READ_AHEAD_LARGE_MAX_BYTES. */
export const READ_AHEAD_LARGE_FILES = 2;
export const READ_AHEAD_LARGE_MAX_BYTES = 1024 * 1024;

/** The file's stat, as examine takes it: a source that does not follow links stats only `<within>/<key>`. */
function statOf(item: JobItem, options: JobOptions): Promise<Stats | undefined> {
  return options.within ? statNoLinks(options.within, item.key) : fs.stat(item.file).catch(() => undefined);
}

/** Each step done when asked. */
export function fileIo(ctx: CoreContext, item: JobItem, options: JobOptions): FileIo {
  return {
    stat: () => statOf(item, options),
    read: () => fs.readFile(item.file),
    hash: sha256,
    parse: (data) => parseFileBytes(ctx, data, item.file),
    realpath: () => fs.realpath(item.file).catch(() => item.file),
  };
}

/** A promise whose rejection is handled where it is awaited, not reported as unhandled meanwhile. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * Starts the steps of the next files of a job while the current one is examined: stat, then the bytes (a file
 * that is still a regular file within the size bounds), their hash, and the parse unless the bytes hash as the
 * ledger last recorded (the file is probably unchanged: examine decides, and parses in its turn if it must). The
 * order examine relies on holds (the stat is taken before the bytes are read); what depends on the KB's state
 * (unchanged or not, duplicates, deletions) is still decided by examine in the file's turn.
 */
export class ReadAhead {
  private readonly started = new Map<number, FileIo>();

  constructor(
    private readonly ctx: CoreContext,
    private readonly options: JobOptions,
    /** The file hash the ledger recorded for a key (null or undefined: parse ahead). */
    private readonly recordedHash: (key: string) => string | null | undefined,
  ) {}

  /** Files read ahead and not handed over yet. */
  get size(): number {
    return this.started.size;
  }

  /** The file's steps: started ahead, or done when asked. */
  take(i: number, item: JobItem): FileIo {
    const ahead = this.started.get(i);
    if (!ahead) return fileIo(this.ctx, item, this.options);
    this.started.delete(i);
    return ahead;
  }

  /**
   * Also read (and parse) ahead the READ_AHEAD_LARGE_FILES next files up to READ_AHEAD_LARGE_MAX_BYTES: set for a KB
   * without an embedding model, where nothing else wants the second core while this thread chunks and writes a file.
   * Full-text `add` of 20 MB in 256 KiB files, 16 interleaved pairs: 0.92× the time on average, 12 of 16 faster; with
   * potion no gain could be told from the noise (6 pairs, 0.75-1.30×).
   */
  large = false;

  /**
   * Start the small files among the READ_AHEAD_FILES after position `at` of `pending` (indexes of `items`), and
   * larger ones when `large`.
   */
  fill(items: readonly JobItem[], pending: readonly number[], at: number): void {
    const bound = Math.min(this.ctx.options.streamFromBytes, this.ctx.options.maxFileBytes);
    for (let k = at + 1; k < pending.length && k <= at + READ_AHEAD_FILES; k++) {
      const i = pending[k]!;
      const item = items[i]!;
      const limit = Math.min(bound, this.large && k <= at + READ_AHEAD_LARGE_FILES ? READ_AHEAD_LARGE_MAX_BYTES : READ_AHEAD_MAX_BYTES);
      if (!this.started.has(i) && item.action === 'index' && item.bytes <= limit) this.started.set(i, this.start(item, limit));
    }
  }

  private start(item: JobItem, limit: number): FileIo {
    const now = fileIo(this.ctx, item, this.options);
    const stat = quiet(now.stat());
    // Read only what examine will read: a regular file still within the bounds (else it stats and decides itself).
    const read = quiet(stat.then((s) => (s?.isFile() && s.size <= limit ? now.read() : undefined)));
    let hashed: { data: Buffer; hash: string } | undefined;
    // Hashed as soon as read (so before examine, which awaits the read, asks); parsed unless probably unchanged.
    const parsed = quiet(
      read.then((data) => {
        if (!data) return undefined;
        hashed = { data, hash: sha256(data) };
        return this.options.force || hashed.hash !== this.recordedHash(item.key) ? { parse: quiet(now.parse(data)) } : undefined;
      }),
    );
    const realpath = this.options.within ? undefined : quiet(now.realpath());
    return {
      stat: () => stat,
      read: async () => (await read) ?? now.read(),
      hash: (data) => (hashed?.data === data ? hashed.hash : sha256(data)),
      parse: async (data) => {
        const p = await parsed;
        return p && hashed?.data === data ? p.parse : now.parse(data);
      },
      realpath: () => realpath ?? now.realpath(),
    };
  }
}

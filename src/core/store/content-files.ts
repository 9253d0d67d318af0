import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../util/hash.js';

/**
 * The full text of large documents, one file per document version under `<data>/content/<kb>/`, instead of the
 * `content` column of their document row (which stays empty): documents streamed in (services/stream-ingest.ts),
 * and any other whose text has at least `CoreOptions.contentFileMinChars` characters (services/ingest.ts). The
 * documents table, shared by every KB, then holds small texts only: LanceDB's compaction, which each 32 document
 * writes bring, rewrites all of that table, and it held 100 MB of Markdown (0.8-1.0 s a compaction) or 800 MB
 * (8-10 s and ~1 GB of RSS) when every text was in it.
 * A file is written (`<name>.part`, fsync) and renamed before its document row is committed; the row's version
 * names the file, so a file no row points at is garbage: it goes (by name) when its version is replaced or deleted,
 * when the write that made it is rolled back, and a sweep at open takes whatever a crash left.
 */
export class ContentFiles {
  constructor(readonly dir: string) {}

  private kbDir(kbId: string): string {
    return path.join(this.dir, encodeURIComponent(kbId));
  }

  private static docKey(docId: string): string {
    return sha256(docId).slice(0, 32);
  }

  /** The file of one document version. */
  file(kbId: string, docId: string, version: string): string {
    return path.join(this.kbDir(kbId), `${ContentFiles.docKey(docId)}.${version}.txt`);
  }

  /** Start writing a version's text: append pieces, then `commit` (renamed into place) or `abort`. */
  writer(kbId: string, docId: string, version: string): ContentWriter {
    fs.mkdirSync(this.kbDir(kbId), { recursive: true, mode: 0o700 });
    return new ContentWriter(this.file(kbId, docId, version));
  }

  /** Write a version's whole text: durable and in place once this resolves (off the main thread). */
  async put(kbId: string, docId: string, version: string, text: string): Promise<void> {
    await fsp.mkdir(this.kbDir(kbId), { recursive: true, mode: 0o700 });
    const file = this.file(kbId, docId, version);
    const part = `${file}.part`;
    const handle = await fsp.open(part, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } catch (err) {
      await handle.close();
      await fsp.rm(part, { force: true });
      throw err;
    }
    await handle.close();
    await fsp.rename(part, file);
  }

  /**
   * Write the texts of one version's documents (a batch), every file settled before this resolves: when one fails,
   * the error comes once no other is still being written, so a removal after it finds them all.
   */
  async putAll(kbId: string, version: string, texts: ReadonlyArray<{ doc_id: string; text: string }>): Promise<void> {
    const put = await Promise.allSettled(texts.map((t) => this.put(kbId, t.doc_id, version, t.text)));
    for (const p of put) if (p.status === 'rejected') throw p.reason;
  }

  /**
   * Remove the file of one document version, by its name, whether or not it was written: a version replaced or
   * deleted, or a write rolled back (listing the KB's folder instead took 44 ms with 20,000 files in it).
   */
  removeVersion(kbId: string, docId: string, version: string): void {
    const file = this.file(kbId, docId, version);
    fs.rmSync(file, { force: true });
    fs.rmSync(`${file}.part`, { force: true });
  }

  /** Whether a KB has a content folder (none: none of its documents has a content file). */
  has(kbId: string): boolean {
    return fs.existsSync(this.kbDir(kbId));
  }

  /** A version's text, or undefined when it has no file. */
  read(kbId: string, docId: string, version: string): string | undefined {
    try {
      return fs.readFileSync(this.file(kbId, docId, version), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Remove everything of a KB (it is being dropped). */
  removeKb(kbId: string): void {
    fs.rmSync(this.kbDir(kbId), { recursive: true, force: true });
  }

  /**
   * At open: remove the files no document row points at (`live`: doc_id → version), and unfinished ones. Returns
   * how many went.
   */
  sweep(kbId: string, live: ReadonlyMap<string, string>): number {
    const keep = new Set([...live].map(([doc, version]) => `${ContentFiles.docKey(doc)}.${version}.txt`));
    let removed = 0;
    for (const name of this.names(kbId)) {
      if (keep.has(name)) continue;
      fs.rmSync(path.join(this.kbDir(kbId), name), { force: true });
      removed++;
    }
    return removed;
  }

  /** KBs with a content folder. */
  kbs(): string[] {
    try {
      return fs.readdirSync(this.dir).map((n) => decodeURIComponent(n));
    } catch {
      return [];
    }
  }

  private names(kbId: string): string[] {
    try {
      return fs.readdirSync(this.kbDir(kbId));
    } catch {
      return [];
    }
  }
}

/** Appends a version's text to `<file>.part`; `commit` makes it durable and renames it into place. */
export class ContentWriter {
  private fd: number | undefined;
  private readonly part: string;

  constructor(readonly file: string) {
    this.part = `${file}.part`;
    this.fd = fs.openSync(this.part, 'w', 0o600);
  }

  write(text: string): void {
    if (this.fd === undefined) throw new Error('content writer closed');
    fs.writeSync(this.fd, text, null, 'utf8');
  }

  commit(): void {
    if (this.fd === undefined) throw new Error('content writer closed');
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    this.fd = undefined;
    fs.renameSync(this.part, this.file);
  }

  abort(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    fs.rmSync(this.part, { force: true });
  }
}

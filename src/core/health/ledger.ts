import fs from 'node:fs';
import path from 'node:path';
import type { HealthEntry } from '../../shared/contract/index.js';
import { readJsonFile, writeFileAtomic } from '../util/json-file.js';

/** What ragdesk last knew about one file: its health entry plus what a rescan compares (size, mtime, bytes hash). */
export interface FileRecord extends HealthEntry {
  mtime_ms: number;
  /** sha256 of the file's bytes; null when the file was not read (too large, vanished). */
  file_hash: string | null;
}

/**
 * The per-file records of one source (or of the files added to a KB directly), keyed by path: the memory a
 * rescan compares the folder against, and the health report. A JSON file written atomically.
 */
export class FileLedger {
  private readonly records = new Map<string, FileRecord>();
  private dirty = false;

  constructor(readonly file: string) {
    const raw = readJsonFile<{ version?: number; files?: FileRecord[] }>(file, { version: 1, files: [] });
    for (const r of raw.files ?? []) this.records.set(r.file, r);
  }

  get size(): number {
    return this.records.size;
  }

  get(key: string): FileRecord | undefined {
    return this.records.get(key);
  }

  set(record: FileRecord): void {
    this.records.set(record.file, record);
    this.dirty = true;
  }

  delete(key: string): void {
    if (this.records.delete(key)) this.dirty = true;
  }

  values(): IterableIterator<FileRecord> {
    return this.records.values();
  }

  keys(): IterableIterator<string> {
    return this.records.keys();
  }

  save(): void {
    if (!this.dirty) return;
    writeFileAtomic(this.file, `${JSON.stringify({ version: 1, files: [...this.records.values()] })}\n`);
    this.dirty = false;
  }

  remove(): void {
    this.records.clear();
    this.dirty = false;
    fs.rmSync(this.file, { force: true });
  }
}

/** `<data>/health/<kb_id>/<source_id>.json`, or `_files.json` for files added to the KB directly. */
export function ledgerPath(dataDir: string, kbId: string, sourceId: string | null): string {
  return path.join(dataDir, 'health', kbId, `${sourceId ?? '_files'}.json`);
}

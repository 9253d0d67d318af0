/** Files taken from a drop or a picker, with the path inside a dropped folder (`folder/sub/file.md`). */
export interface PickedFile {
  file: File;
  path: string;
}

/** Minimal shapes of the File and Directory Entries API (webkitGetAsEntry), which lib.dom types only in part. */
interface EntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
}
interface FileEntryLike extends EntryLike {
  file(success: (file: File) => void, failure?: (err: unknown) => void): void;
}
interface DirectoryEntryLike extends EntryLike {
  createReader(): { readEntries(success: (entries: EntryLike[]) => void, failure?: (err: unknown) => void): void };
}

const SKIP = /^(\.|~\$|Thumbs\.db$|desktop\.ini$)/i;

function readFile(entry: FileEntryLike): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function readAll(dir: DirectoryEntryLike): Promise<EntryLike[]> {
  const reader = dir.createReader();
  const out: EntryLike[] = [];
  // readEntries answers in batches (Chromium: 100) until an empty one.
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return out;
    out.push(...batch);
  }
}

async function walk(entry: EntryLike, out: PickedFile[], limit: number): Promise<void> {
  if (out.length >= limit || SKIP.test(entry.name)) return;
  if (entry.isFile) {
    const file = await readFile(entry as FileEntryLike);
    out.push({ file, path: entry.fullPath.replace(/^\//, '') || file.name });
  } else if (entry.isDirectory) {
    for (const child of await readAll(entry as DirectoryEntryLike)) await walk(child, out, limit);
  }
}

/** Every file in a drop, walking dropped folders; hidden files and OS clutter are skipped. */
export async function filesFromDataTransfer(dt: DataTransfer, limit = 2000): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  const items = Array.from(dt.items ?? []).filter((i) => i.kind === 'file');
  // Entries must be taken synchronously, before the first await: the DataTransfer empties after the event.
  const entries = items.map((i) => (typeof i.webkitGetAsEntry === 'function' ? (i.webkitGetAsEntry() as EntryLike | null) : null));
  if (entries.length > 0 && entries.every((e) => e !== null)) {
    for (const entry of entries) await walk(entry!, out, limit);
    return out;
  }
  for (const file of Array.from(dt.files)) if (!SKIP.test(file.name)) out.push({ file, path: file.name });
  return out.slice(0, limit);
}

/** Files from an `<input type=file>` (with `webkitdirectory`, each file knows its relative path). */
export function filesFromList(list: FileList | File[] | null): PickedFile[] {
  return Array.from(list ?? [])
    .filter((f) => !SKIP.test(f.name))
    .map((file) => ({ file, path: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name }));
}

/** Base64 of a file's bytes, for `uploadFile` / `preview` (chunked so big files do not blow the call stack). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

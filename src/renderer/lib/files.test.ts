import { describe, expect, it } from 'vitest';
import { fileToBase64, filesFromDataTransfer, filesFromList } from './files.js';

/** Fake File and Directory Entries (what webkitGetAsEntry gives for a dropped folder). */
function fileEntry(fullPath: string, text = fullPath) {
  const name = fullPath.split('/').pop()!;
  return { isFile: true, isDirectory: false, name, fullPath, file: (ok: (f: File) => void) => ok(new File([text], name)) };
}
function dirEntry(fullPath: string, children: unknown[]) {
  const name = fullPath.split('/').pop()!;
  return {
    isFile: false,
    isDirectory: true,
    name,
    fullPath,
    createReader() {
      // Answer in batches of 2, then an empty batch, like Chromium's readEntries.
      let at = 0;
      return {
        readEntries(ok: (entries: unknown[]) => void) {
          const batch = children.slice(at, at + 2);
          at += 2;
          setTimeout(() => ok(batch), 0);
        },
      };
    },
  };
}
function transfer(entries: unknown[], files: File[] = []): DataTransfer {
  return {
    items: entries.map((e) => ({ kind: 'file', webkitGetAsEntry: () => e })),
    files,
  } as unknown as DataTransfer;
}

describe('dropped files and folders', () => {
  it('walks dropped folders recursively, keeping relative paths and skipping hidden files', async () => {
    const tree = dirEntry('/docs', [
      fileEntry('/docs/a.md'),
      fileEntry('/docs/.DS_Store'),
      dirEntry('/docs/sub', [
        fileEntry('/docs/sub/b.pdf'),
        fileEntry('/docs/sub/c.docx'),
        dirEntry('/docs/sub/.git', [fileEntry('/docs/sub/.git/HEAD')]),
      ]),
      fileEntry('/docs/d.txt'),
    ]);
    const picked = await filesFromDataTransfer(transfer([tree, fileEntry('/top.html')]));
    expect(picked.map((p) => p.path)).toEqual(['docs/a.md', 'docs/sub/b.pdf', 'docs/sub/c.docx', 'docs/d.txt', 'top.html']);
    expect(await picked[0]!.file.text()).toBe('/docs/a.md');
  });

  it('stops at the limit', async () => {
    const many = dirEntry(
      '/many',
      Array.from({ length: 10 }, (_, i) => fileEntry(`/many/${i}.txt`)),
    );
    expect(await filesFromDataTransfer(transfer([many]), 4)).toHaveLength(4);
  });

  it('falls back to the plain file list when entries are not available (synthetic drops)', async () => {
    const files = [new File(['x'], 'a.md'), new File(['y'], 'b.pdf')];
    const dt = { items: files.map(() => ({ kind: 'file', webkitGetAsEntry: () => null })), files } as unknown as DataTransfer;
    expect((await filesFromDataTransfer(dt)).map((p) => p.path)).toEqual(['a.md', 'b.pdf']);
  });

  it('takes relative paths from a folder picker', () => {
    const f = Object.assign(new File(['x'], 'a.md'), { webkitRelativePath: 'docs/a.md' });
    expect(filesFromList([f, new File(['y'], 'Thumbs.db')]).map((p) => p.path)).toEqual(['docs/a.md']);
  });

  it('encodes bytes as base64, also past the chunk size', async () => {
    const bytes = new Uint8Array(100_000).map((_, i) => i % 251);
    const b64 = await fileToBase64(new Blob([bytes]));
    expect(Buffer.from(b64, 'base64').equals(Buffer.from(bytes))).toBe(true);
  });
});

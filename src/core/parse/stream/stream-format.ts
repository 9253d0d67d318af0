import fs from 'node:fs/promises';
import { detectParser } from '../registry.js';

const HEAD_BYTES = 64 * 1024;

/**
 * Whether a file is read section by section (services/stream-ingest.ts): a text or Markdown file (by name, or by
 * its first bytes when the name does not say) of at least `fromBytes`. Other formats are parsed whole.
 */
export async function streamFormat(file: string, size: number, fromBytes: number): Promise<'markdown' | 'text' | undefined> {
  if (size < fromBytes) return undefined;
  const fd = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fd.read(head, 0, HEAD_BYTES, 0);
    const parser = detectParser({ data: head.subarray(0, bytesRead), filename: file });
    return parser.name === 'markdown' || parser.name === 'text' ? parser.name : undefined;
  } catch {
    return undefined;
  } finally {
    await fd.close();
  }
}

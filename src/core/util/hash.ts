import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/** sha256 of a file, read in pieces (it may be larger than memory allows). */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) hash.update(piece);
  return hash.digest('hex');
}

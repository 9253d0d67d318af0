import fs from 'node:fs';
import iconv from 'iconv-lite';
import { decodeText, detectBom } from '../../text/encoding.js';

/** A piece of a text or Markdown file, cut where a block ends: parsed, chunked and written on its own. */
export interface TextSection {
  /** Decoded source (line endings `\n`, no NUL). */
  source: string;
  /** 1-based line of its first line in the file. */
  firstLine: number;
  /** Bytes of the file read so far. */
  bytesRead: number;
}

export interface TextStream {
  encoding: string;
  confidence: number;
  sections: AsyncGenerator<TextSection>;
}

/** Bytes read to decide the encoding (the rest is decoded with the same one). */
const SAMPLE_BYTES = 1 << 20;
/** Characters per section, about: cut at the last block boundary before this, or the first one after. */
export const SECTION_CHARS = 1 << 20;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The positions after which a section may end (the end of a blank line outside a fenced code block, for Markdown),
 * scanning `text` from its start; with the fence open at `limit`, also that fence's opening line.
 */
function blockEnds(text: string, markdown: boolean, limit: number): { before?: number; after?: number; openFence?: string } {
  let fence: { char: string; len: number; line: string } | undefined;
  let before: number | undefined;
  let after: number | undefined;
  let pos = 0;
  let fenceAtLimit: string | undefined;
  let passedLimit = false;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    if (nl === -1) break;
    const line = text.slice(pos, nl);
    if (!passedLimit && nl + 1 > limit) {
      passedLimit = true;
      fenceAtLimit = fence?.line;
    }
    if (markdown) {
      const m = FENCE.exec(line);
      if (m) {
        const run = m[1]!;
        if (!fence) fence = { char: run[0]!, len: run.length, line };
        else if (run[0] === fence.char && run.length >= fence.len && line.trim() === run) fence = undefined;
      }
    }
    if (!fence && line.trim() === '') {
      if (nl + 1 <= limit) before = nl + 1;
      else {
        after = nl + 1;
        break;
      }
    }
    pos = nl + 1;
  }
  return {
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
    ...(fenceAtLimit ? { openFence: fenceAtLimit } : {}),
  };
}

function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Where to end the next section of `buf` (none while it is shorter than a section). A block boundary at or before
 * `sectionChars`, else the first after it within four sections' worth; with none (a giant code block, a file with
 * no blank line), the last line end before the limit, else the limit itself (never inside a surrogate pair).
 */
function cutPoint(buf: string, sectionChars: number, markdown: boolean): { at: number; openFence?: string } | undefined {
  if (buf.length < sectionChars) return undefined;
  const ends = blockEnds(buf, markdown, sectionChars);
  if (ends.before !== undefined) return { at: ends.before };
  if (ends.after !== undefined && ends.after <= sectionChars * 4) return { at: ends.after };
  if (buf.length < sectionChars * 4) return undefined;
  const nl = buf.lastIndexOf('\n', sectionChars);
  let at = nl > 0 ? nl + 1 : sectionChars;
  if (nl <= 0 && /[\ud800-\udbff]/.test(buf[at - 1] ?? '')) at--;
  return ends.openFence ? { at, openFence: ends.openFence } : { at };
}

/** The encoding of a file, decided on its first megabyte (cut at a line end so no character is split). */
async function sniffEncoding(file: string): Promise<{ encoding: string; confidence: number }> {
  const fd = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await fd.read(buf, 0, SAMPLE_BYTES, 0);
    let sample = buf.subarray(0, bytesRead);
    const bom = detectBom(sample);
    if (bom) return { encoding: bom.encoding, confidence: 1 };
    if (bytesRead === SAMPLE_BYTES) {
      const nl = sample.lastIndexOf(0x0a);
      // UTF-16 has a zero byte beside its newline: keep the pair whole.
      if (nl > 0) sample = sample.subarray(0, sample[nl + 1] === 0 ? nl + 2 : nl + 1);
    }
    const { encoding, confidence } = decodeText(sample);
    return { encoding, confidence: confidence ?? 1 };
  } finally {
    await fd.close();
  }
}

/**
 * Read a text or Markdown file as sections of about `sectionChars` characters, each ending where a block ends, in
 * memory that does not grow with the file: one section and one read buffer at a time. A section forced to end
 * inside a fenced code block closes the fence, and the next one reopens it (its first line then is the fence line,
 * numbered one before the section's real first line).
 */
export async function openTextStream(
  file: string,
  opts: { markdown: boolean; sectionChars?: number; signal?: AbortSignal },
): Promise<TextStream> {
  const { encoding, confidence } = await sniffEncoding(file);
  const sectionChars = opts.sectionChars ?? SECTION_CHARS;
  async function* sections(): AsyncGenerator<TextSection> {
    const decoder = iconv.getDecoder(encoding);
    let buf = '';
    let line = 1;
    let bytesRead = 0;
    let carry = '';
    let reopen: string | undefined;
    const take = (cut: { at: number; openFence?: string }): TextSection => {
      let source = buf.slice(0, cut.at);
      const firstLine = reopen ? line - 1 : line;
      if (reopen) source = `${reopen}\n${source}`;
      line += countLines(buf, cut.at);
      buf = buf.slice(cut.at);
      if (cut.openFence) source += `\n${cut.openFence.trim().replace(/[^`~].*$/, '')}\n`;
      reopen = cut.openFence;
      return { source, firstLine, bytesRead };
    };
    const stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (opts.signal?.aborted) {
        stream.destroy();
        throw opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted');
      }
      bytesRead += chunk.length;
      let text = carry + decoder.write(chunk);
      carry = '';
      // A "\r" at the end may be half of a "\r\n": wait for the next piece.
      if (text.endsWith('\r')) {
        carry = '\r';
        text = text.slice(0, -1);
      }
      buf += clean(text, bytesRead === chunk.length);
      for (let cut = cutPoint(buf, sectionChars, opts.markdown); cut; cut = cutPoint(buf, sectionChars, opts.markdown)) {
        yield take(cut);
      }
    }
    buf += clean(carry + (decoder.end() ?? ''), false);
    while (buf.length > 0) yield take(cutPoint(buf, sectionChars, opts.markdown) ?? { at: buf.length });
  }
  return { encoding, confidence, sections: sections() };
}

/** Line endings to `\n`, NUL removed, a BOM dropped at the very start (as decodeText does for a whole file). */
function clean(text: string, first: boolean): string {
  let out = first && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (out.includes('\r')) out = out.replace(/\r\n?/g, '\n');
  if (out.includes('\0')) out = out.replace(/\0/g, '');
  return out;
}

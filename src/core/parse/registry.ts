import type { ParserInfo } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { decodeText } from '../text/encoding.js';
import { looksLikeHtml, looksLikeMarkdown, sniff } from './detect.js';
import { docxParser } from './docx-parser.js';
import { htmlParser } from './html-parser.js';
import { imageParser, looksLikeImage } from './image-parser.js';
import { markdownParser } from './markdown-parser.js';
import { parseFailed, unsupportedFormat } from './parse-errors.js';
import { pdfParser } from './pdf-parser.js';
import { textParser } from './text-parser.js';
import { codeLanguage, codeParser } from './code-parser.js';
import { csvParser } from './csv-parser.js';
import { epubParser } from './epub-parser.js';
import { odpParser } from './odp-parser.js';
import { odsParser } from './ods-parser.js';
import { odtParser } from './odt-parser.js';
import { pptxParser } from './pptx-parser.js';
import { rtfParser } from './rtf-parser.js';
import { xlsxParser } from './xlsx-parser.js';
import { defaultParsePool, type ParsePool, type TaskProgress } from './pool/parse-pool.js';
import type { ParseInput, ParsedBlock, ParsedDocument, Parser } from './types.js';

const PARSERS: readonly Parser[] = [
  textParser,
  markdownParser,
  htmlParser,
  pdfParser,
  docxParser,
  xlsxParser,
  odsParser,
  csvParser,
  pptxParser,
  odpParser,
  odtParser,
  epubParser,
  rtfParser,
  codeParser,
  imageParser,
];

/** Formats in ZIP (or RTF) containers: an extension that names one wins over content that does not look like it. */
const CONTAINER_PARSERS: readonly Parser[] = [
  pdfParser,
  docxParser,
  xlsxParser,
  odsParser,
  pptxParser,
  odpParser,
  odtParser,
  epubParser,
  rtfParser,
];

/** Extensions of formats we know we cannot read, refused even when the bytes happen to look like text. */
const UNSUPPORTED_EXTENSIONS = new Set(
  (
    'ico heic heif svg psd ai eps raw exe dll so dylib bin msi apk dmg iso img ' +
    'zip gz tgz bz2 xz 7z rar tar jar war class pyc o a lib wasm mp3 mp4 m4a wav ogg flac aac avi mov mkv webm ' +
    'doc dot xls ppt odg mobi pages numbers key sqlite db mdb ttf otf woff woff2'
  ).split(/\s+/),
);

export function listParsers(): ParserInfo[] {
  return PARSERS.map((p) => ({ name: p.name, extensions: [...p.extensions], mime_types: [...p.mimeTypes], description: p.description }));
}

export function getParser(name: string): Parser {
  const parser = PARSERS.find((p) => p.name === name);
  if (!parser) {
    throw new RagError('invalid_parameter', `Unknown parser "${name}". Known parsers: ${PARSERS.map((p) => p.name).join(', ')}.`, {
      details: { parser: name, known: PARSERS.map((p) => p.name) },
    });
  }
  return parser;
}

/** The lower-case extension of a file name, without the dot ('' when there is none). */
export function extensionOf(filename: string | undefined): string {
  if (!filename) return '';
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

function parserForExtension(ext: string): Parser | undefined {
  return ext ? PARSERS.find((p) => p.extensions.includes(ext)) : undefined;
}

/**
 * Chooses the parser for some bytes. Content that is unmistakably PDF, DOCX, XLSX, PPTX, ODF, EPUB or RTF wins over
 * the extension; such an extension wins over other content (a damaged file then fails as `parse_failed`); an
 * encrypted Office file is `parse_failed` (encrypted); known binary
 * formats and binary bytes are `unsupported_format`; text goes by extension, else by its first lines
 * (HTML, obvious Markdown, otherwise plain text).
 */
export function detectParser(input: ParseInput): Parser {
  const { data, filename } = input;
  const ext = extensionOf(filename);
  const sniffed = sniff(data);
  if (sniffed.kind === 'pdf') return pdfParser;
  if (sniffed.kind === 'docx') return docxParser;
  if (sniffed.kind === 'document') return getParser(sniffed.parser);
  if (sniffed.kind === 'encrypted_office') throw parseFailed(filename, 'encrypted', 'the Office document is password-protected');
  // Scans and photos: their text comes from OCR.
  if (looksLikeImage(data)) return imageParser;
  const container = ext ? CONTAINER_PARSERS.find((p) => p.extensions.includes(ext)) : undefined;
  if (container) return container;
  if (UNSUPPORTED_EXTENSIONS.has(ext)) throw unsupportedFormat(filename, sniffed.kind === 'binary' ? sniffed.format : `.${ext} file`);
  if (sniffed.kind === 'binary') throw unsupportedFormat(filename, sniffed.format);
  const byExt = parserForExtension(ext) ?? (codeLanguage(filename) ? codeParser : undefined);
  if (byExt) return byExt;
  const head = decodeText(data.subarray(0, 4096)).text;
  if (looksLikeHtml(head)) return htmlParser;
  if (looksLikeMarkdown(head)) return markdownParser;
  return textParser;
}

export interface ParseBytesInput extends ParseInput {
  /** Force a parser by name instead of detecting one. */
  parser?: string;
}

/** What a worker gets: the parser chosen by the host, the bytes and the file's name. */
export interface ParseTaskPayload {
  parser: string;
  data: Uint8Array;
  filename?: string;
}

/** Runs one parser in this thread, turning anything unexpected into `parse_failed` naming the file. */
export async function parseWithParser(payload: ParseTaskPayload): Promise<ParsedDocument> {
  const parser = getParser(payload.parser);
  try {
    return await parser.parse({ data: payload.data, ...(payload.filename === undefined ? {} : { filename: payload.filename }) });
  } catch (err) {
    if (err instanceof RagError) throw err;
    throw parseFailed(payload.filename, 'error', `the ${parser.name} parser failed`, err);
  }
}

/** Detects and parses in this thread, without the pool's limits: for trusted bytes and the parsers' own tests. */
export async function parseBytesInThread(input: ParseBytesInput): Promise<ParsedDocument> {
  const parser = input.parser ? getParser(input.parser) : detectParser(input);
  return parseWithParser({ parser: parser.name, data: input.data, ...(input.filename === undefined ? {} : { filename: input.filename }) });
}

/** A worker that parsed more than this is replaced afterwards (see ParsePool's `retire`). */
const RETIRE_AFTER_BYTES = 4 * 1024 * 1024;

export interface ParseOptions {
  /** Cancels the parse (its worker is stopped). */
  signal?: AbortSignal;
  onProgress?: (p: TaskProgress) => void;
  /** The pool to parse in; the process-wide one by default. */
  pool?: ParsePool;
}

/**
 * Detects the format (here: sniffing is cheap and refuses binaries before any worker is involved) and parses in the
 * parse worker pool, under its memory and time limits. Errors: `unsupported_format` for formats we do not read,
 * `parse_failed` naming the file for anything that goes wrong inside a parser, `too_large` naming the limit for a
 * file over a pool or ZIP limit, `invalid_parameter` for an unknown parser name. A document without text is not an
 * error: it comes back empty with an `empty_text` warning.
 */
export async function parseBytes(input: ParseBytesInput, options: ParseOptions = {}): Promise<ParsedDocument> {
  const parser = input.parser ? getParser(input.parser) : detectParser(input);
  const payload: ParseTaskPayload = {
    parser: parser.name,
    data: input.data,
    ...(input.filename === undefined ? {} : { filename: input.filename }),
  };
  const pool = options.pool ?? defaultParsePool();
  const packed = await pool.run<PackedDocument>('parse', payload, {
    ...(input.filename === undefined ? {} : { filename: input.filename }),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    bytes: input.data.byteLength,
    retire: input.data.byteLength > RETIRE_AFTER_BYTES,
  });
  return unpackParsed(packed);
}

/** A parsed document as it crosses from a worker: block texts left out (they are slices of `text`). */
export type PackedDocument = Omit<ParsedDocument, 'blocks'> & { blocks: Omit<ParsedBlock, 'text'>[] };

/** Drops the block texts, which repeat `text`: a 15 MB document then crosses the thread boundary once, not twice. */
export function packParsed(doc: ParsedDocument): PackedDocument {
  const blocks = new Array<Omit<ParsedBlock, 'text'>>(doc.blocks.length);
  for (let i = 0; i < blocks.length; i++) {
    const { text: _t, ...rest } = doc.blocks[i]!;
    blocks[i] = rest;
  }
  return { ...doc, blocks };
}

export function unpackParsed(doc: PackedDocument): ParsedDocument {
  const blocks = new Array<ParsedBlock>(doc.blocks.length);
  for (let i = 0; i < blocks.length; i++) {
    const b = doc.blocks[i]!;
    blocks[i] = { text: doc.text.slice(b.char_start, b.char_end), ...b };
  }
  return { ...doc, blocks };
}

import { detectBom, detectUtf16WithoutBom } from '../text/encoding.js';

/**
 * Content sniffing for the parser registry: magic bytes of the formats we parse (PDF, the ZIP-based office and
 * e-book formats, RTF), of common
 * binary formats we refuse (images, archives, executables, audio/video, legacy Office), and a text/binary test.
 */
export type Sniffed =
  | { kind: 'pdf' }
  | { kind: 'docx' }
  /** Another format a parser reads, known by its content: the parser's name. */
  | { kind: 'document'; parser: 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp' | 'epub' | 'rtf' }
  /** A password-protected Office file (OOXML inside an encrypted OLE container). */
  | { kind: 'encrypted_office' }
  | { kind: 'binary'; format: string }
  | { kind: 'text' };

const SAMPLE = 8192;

function startsWith(data: Uint8Array, sig: readonly number[], offset = 0): boolean {
  if (data.length < offset + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (data[offset + i] !== sig[i]) return false;
  return true;
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

const BINARY_SIGNATURES: { format: string; sig: number[]; offset?: number }[] = [
  { format: 'PNG image', sig: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { format: 'JPEG image', sig: [0xff, 0xd8, 0xff] },
  { format: 'GIF image', sig: ascii('GIF8') },
  { format: 'TIFF image', sig: [0x49, 0x49, 0x2a, 0x00] },
  { format: 'TIFF image', sig: [0x4d, 0x4d, 0x00, 0x2a] },
  { format: 'RIFF media (WebP/WAV/AVI)', sig: ascii('RIFF') },
  { format: 'ISO media (MP4/MOV/HEIC)', sig: ascii('ftyp'), offset: 4 },
  { format: 'MP3 audio', sig: ascii('ID3') },
  { format: 'Ogg media', sig: ascii('OggS') },
  { format: 'FLAC audio', sig: ascii('fLaC') },
  { format: 'Matroska/WebM video', sig: [0x1a, 0x45, 0xdf, 0xa3] },
  { format: 'ZIP archive', sig: [0x50, 0x4b, 0x03, 0x04] },
  { format: 'ZIP archive', sig: [0x50, 0x4b, 0x05, 0x06] },
  { format: 'gzip archive', sig: [0x1f, 0x8b] },
  { format: '7-Zip archive', sig: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { format: 'RAR archive', sig: ascii('Rar!\x1a\x07') },
  { format: 'xz archive', sig: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { format: 'legacy Office document (doc/xls/ppt/msg)', sig: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] },
  { format: 'ELF executable', sig: [0x7f, 0x45, 0x4c, 0x46] },
  { format: 'Mach-O executable', sig: [0xcf, 0xfa, 0xed, 0xfe] },
  { format: 'Windows executable', sig: [0x4d, 0x5a, 0x90, 0x00] },
  { format: 'WebAssembly module', sig: [0x00, 0x61, 0x73, 0x6d] },
  { format: 'SQLite database', sig: ascii('SQLite format 3\0') },
  { format: 'Java class', sig: [0xca, 0xfe, 0xba, 0xbe] },
];

function indexOfAscii(data: Uint8Array, needle: string, limit = data.length): number {
  return Buffer.from(data.buffer, data.byteOffset, Math.min(limit, data.byteLength)).indexOf(needle, 0, 'latin1');
}

/** A ZIP whose entries include the main part of a Word document. */
function isDocxZip(data: Uint8Array): boolean {
  return (
    indexOfAscii(data, 'word/document.xml') !== -1 ||
    (indexOfAscii(data, '[Content_Types].xml') !== -1 && indexOfAscii(data, 'word/') !== -1)
  );
}

/** True for bytes that are not text in any encoding we decode: NUL bytes, or many control characters. */
export function looksBinary(data: Uint8Array): boolean {
  if (data.length === 0) return false;
  if (detectBom(data)) return false;
  const sample = data.subarray(0, SAMPLE);
  if (detectUtf16WithoutBom(sample)) return false;
  let controls = 0;
  for (const b of sample) {
    if (b === 0) return true;
    // Tab, LF, VT, FF, CR and ESC (ANSI colours in logs) occur in text; other C0 controls and DEL do not.
    if ((b < 0x20 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13 && b !== 0x1b) || b === 0x7f) controls++;
  }
  return controls > Math.max(1, sample.length * 0.01);
}

const ODF_TYPES: [string, 'odt' | 'ods' | 'odp' | 'epub'][] = [
  ['application/vnd.oasis.opendocument.text', 'odt'],
  ['application/vnd.oasis.opendocument.spreadsheet', 'ods'],
  ['application/vnd.oasis.opendocument.presentation', 'odp'],
  ['application/epub+zip', 'epub'],
];
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/** The format of a ZIP by its parts: ODF and EPUB name their type in a first `mimetype` entry, OOXML by its main part. */
function zipFormat(data: Uint8Array): Sniffed | undefined {
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, 256)).toString('latin1');
  if (head.includes('mimetype')) {
    for (const [type, parser] of ODF_TYPES) {
      const at = head.indexOf(type);
      // Exactly the type: "…opendocument.text-template" is another thing.
      if (at !== -1 && !/^[\w-]/.test(head.slice(at + type.length, at + type.length + 1))) return { kind: 'document', parser };
    }
  }
  if (isDocxZip(data)) return { kind: 'docx' };
  if (indexOfAscii(data, 'xl/workbook.xml') !== -1) return { kind: 'document', parser: 'xlsx' };
  if (indexOfAscii(data, 'ppt/presentation.xml') !== -1) return { kind: 'document', parser: 'pptx' };
  return undefined;
}

export function sniff(data: Uint8Array): Sniffed {
  // The header opens the file (pdf.js also copes with junk before it, but then only the .pdf extension tells).
  const pdfAt = indexOfAscii(data, '%PDF-', 16);
  if (pdfAt !== -1 && data.subarray(0, pdfAt).every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d)) return { kind: 'pdf' };
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) {
    const zip = zipFormat(data);
    if (zip) return zip;
  }
  if (startsWith(data, ascii('{\\rtf'))) return { kind: 'document', parser: 'rtf' };
  if (
    startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) &&
    Buffer.from(data.buffer, data.byteOffset, data.byteLength).includes(ENCRYPTED_PACKAGE)
  ) {
    return { kind: 'encrypted_office' };
  }
  for (const s of BINARY_SIGNATURES) if (startsWith(data, s.sig, s.offset ?? 0)) return { kind: 'binary', format: s.format };
  if (looksBinary(data)) return { kind: 'binary', format: 'binary data' };
  return { kind: 'text' };
}

const HTML_START = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i;

/** HTML by its opening: a doctype, or an <html>/<head>/<body> tag, after optional comments. */
export function looksLikeHtml(head: string): boolean {
  return HTML_START.test(head);
}

/**
 * Markdown by obvious structure in the first lines: ATX headings together with other Markdown (a second
 * heading, lists, links, emphasis), or a fenced code block, or a table separator row.
 */
export function looksLikeMarkdown(head: string): boolean {
  const lines = head.split('\n').slice(0, 80);
  let headings = 0;
  let lists = 0;
  let fences = 0;
  let tables = 0;
  let inline = 0;
  for (const l of lines) {
    if (/^#{1,6}\s+\S/.test(l)) headings++;
    else if (/^\s{0,3}([-*+]|\d{1,3}[.)])\s+\S/.test(l)) lists++;
    else if (/^\s{0,3}(```|~~~)/.test(l)) fences++;
    else if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$/.test(l)) tables++;
    if (/\[[^\]\n]+\]\([^)\s]+\)|\*\*[^*\n]+\*\*|`[^`\n]+`/.test(l)) inline++;
  }
  if (fences >= 2 || tables >= 1) return true;
  return headings >= 1 && headings + lists + inline >= 2;
}

import { decodeText } from '../text/encoding.js';
import { assembleDocument, type BlockDraft } from './assemble.js';
import { cutLongLine, encodingMetadata } from './text-parser.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

/** Source code and config files by extension → the language recorded with the document. */
const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  pyi: 'python',
  rb: 'ruby',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  scala: 'scala',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  cs: 'csharp',
  fs: 'fsharp',
  php: 'php',
  pl: 'perl',
  pm: 'perl',
  lua: 'lua',
  r: 'r',
  jl: 'julia',
  dart: 'dart',
  m: 'objective-c',
  mm: 'objective-c',
  ex: 'elixir',
  exs: 'elixir',
  erl: 'erlang',
  hs: 'haskell',
  clj: 'clojure',
  ml: 'ocaml',
  zig: 'zig',
  nim: 'nim',
  v: 'verilog',
  vhd: 'vhdl',
  sol: 'solidity',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  fish: 'shell',
  ps1: 'powershell',
  bat: 'batch',
  cmd: 'batch',
  sql: 'sql',
  graphql: 'graphql',
  gql: 'graphql',
  proto: 'protobuf',
  css: 'css',
  scss: 'scss',
  sass: 'sass',
  less: 'less',
  vue: 'vue',
  svelte: 'svelte',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  jsonl: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  ini: 'ini',
  cfg: 'ini',
  conf: 'config',
  properties: 'properties',
  env: 'dotenv',
  xml: 'xml',
  xsd: 'xml',
  xsl: 'xml',
  gradle: 'gradle',
  cmake: 'cmake',
  mk: 'make',
  tf: 'terraform',
  hcl: 'hcl',
  nix: 'nix',
  tex: 'latex',
};

/** Build and config files known by their whole name. */
export const CODE_FILE_NAMES: Record<string, string> = {
  dockerfile: 'dockerfile',
  makefile: 'make',
  gnumakefile: 'make',
  jenkinsfile: 'groovy',
  vagrantfile: 'ruby',
  gemfile: 'ruby',
  rakefile: 'ruby',
  procfile: 'config',
  '.gitignore': 'config',
  '.dockerignore': 'config',
  '.editorconfig': 'ini',
  '.env': 'dotenv',
  '.npmrc': 'ini',
  '.bashrc': 'shell',
  '.zshrc': 'shell',
  '.profile': 'shell',
};

/** Lines per block at least before a blank line may end it, and at most in any case. */
const MIN_LINES = 20;
const MAX_LINES = 80;
const MAX_CHARS = 4000;

/**
 * Code → `code` blocks of whole lines with their line ranges: a block ends at a blank line once it has MIN_LINES
 * lines, at any run of two or more blank lines, and at MAX_LINES or MAX_CHARS. Blocks never hold a run of blank
 * lines, so the text keeps exactly the lines the range names.
 */
export function codeBlocks(text: string): BlockDraft[] {
  const blocks: BlockDraft[] = [];
  let buf: string[] = [];
  let chars = 0;
  let start = 0;
  let blank = 0;
  const flush = (): void => {
    while (buf.length > 0 && buf[buf.length - 1]!.trim() === '') buf.pop();
    if (buf.length > 0) blocks.push({ kind: 'code', text: buf.join('\n'), line_start: start, line_end: start + buf.length - 1 });
    buf = [];
    chars = 0;
  };
  let lineNo = 1;
  let pos = 0;
  while (pos <= text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl === -1) nl = text.length;
    const line = text.slice(pos, nl);
    if (line.trim() === '') {
      blank++;
      if (buf.length >= MIN_LINES || blank >= 2) flush();
      else if (buf.length > 0) buf.push('');
    } else if (line.length > MAX_CHARS) {
      blank = 0;
      flush();
      for (const piece of cutLongLine(line, MAX_CHARS)) blocks.push({ kind: 'code', text: piece, line_start: lineNo, line_end: lineNo });
    } else {
      blank = 0;
      if (buf.length === 0) start = lineNo;
      buf.push(line);
      chars += line.length;
      if (buf.length >= MAX_LINES || chars >= MAX_CHARS) flush();
    }
    lineNo++;
    pos = nl + 1;
  }
  flush();
  return blocks;
}

export function codeLanguage(filename: string | undefined): string | undefined {
  const base = (filename ?? '').split(/[\\/]/).pop()?.toLowerCase() ?? '';
  if (CODE_FILE_NAMES[base]) return CODE_FILE_NAMES[base];
  const dot = base.lastIndexOf('.');
  return dot >= 0 ? LANGUAGES[base.slice(dot + 1)] : undefined;
}

export const codeParser: Parser = {
  name: 'code',
  extensions: Object.keys(LANGUAGES),
  mimeTypes: ['application/json', 'application/x-yaml', 'application/toml', 'text/x-script'],
  description:
    'Source code and config files by extension (and Dockerfile, Makefile…): blocks of whole lines with line ranges, indentation kept.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const decoded = decodeText(input.data);
    const language = codeLanguage(input.filename);
    return assembleDocument({
      parser: 'code',
      blocks: codeBlocks(decoded.text),
      metadata: { ...encodingMetadata(decoded), ...(language ? { language } : {}) },
    });
  },
};

export type { ParseInput, ParsedBlock, ParsedDocument, Parser } from './types.js';
export { BLOCK_SEPARATOR, WARNING_EMPTY_TEXT, assembleDocument, normalizeBlockText, type BlockDraft } from './assemble.js';
export { WARNING_NO_TEXT_LAYER } from './pdf-parser.js';
export {
  detectParser,
  extensionOf,
  getParser,
  listParsers,
  parseBytes,
  parseBytesInThread,
  type ParseBytesInput,
  type ParseOptions,
} from './registry.js';
export {
  ParsePool,
  defaultParsePool,
  setDefaultParsePool,
  type ParsePoolOptions,
  type RunOptions,
  type TaskProgress,
} from './pool/parse-pool.js';

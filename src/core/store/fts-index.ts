import { Index, type Table } from '@lancedb/lancedb';

/** The full-text index's options: the text is analysed in JS (core/text/analyzer.ts), the index only splits on spaces. */
export const FTS_OPTIONS = {
  baseTokenizer: 'whitespace',
  lowercase: false,
  stem: false,
  removeStopWords: false,
  asciiFolding: false,
  withPosition: false,
} as const;

/** Build the full-text index over the analysed column, replacing the one there (first builds and upkeep's rebuilds). */
export const buildFts = (table: Table): Promise<void> => table.createIndex('fts', { config: Index.fts(FTS_OPTIONS), replace: true });

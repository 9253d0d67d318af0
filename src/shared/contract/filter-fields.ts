/**
 * Fields every chunk carries and every KB can filter on (document facts are copied onto each chunk so filters run
 * inside the store query). Metadata fields given at add time come on top, with the types the KB recorded.
 * The one list: the store compiles filters from it, MCP's get_kb_info lists it, the UI's filter builder offers it.
 */
export const BUILTIN_FILTER_FIELDS = {
  doc_id: 'string',
  title: 'string',
  source: 'string',
  parser: 'string',
  chunk_index: 'number',
  page: 'number',
  line_start: 'number',
  line_end: 'number',
  created_at: 'string',
  updated_at: 'string',
} as const satisfies Record<string, 'string' | 'number'>;

export type BuiltinFilterField = keyof typeof BUILTIN_FILTER_FIELDS;

/** The longest filter expression accepted (text form), in characters. */
export const MAX_FILTER_EXPR_CHARS = 8192;

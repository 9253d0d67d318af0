import { prefixesFor, type Prefixes } from '../presets.js';

/**
 * Instruction prefixes that well-known embedding models served by Ollama or OpenAI-compatible servers were
 * trained with (from their model cards). Without them retrieval quality drops noticeably for these models.
 * `query_prefix` / `passage_prefix` in the model string override this table.
 */
const RETRIEVAL_INSTRUCTION = 'Represent this sentence for searching relevant passages: ';

const KNOWN: ReadonlyArray<{ match: RegExp; prefixes: Prefixes }> = [
  // nomic-embed-text v1 / v1.5 / v2-moe: task prefixes.
  { match: /^nomic-embed-text/, prefixes: { query: 'search_query: ', passage: 'search_document: ' } },
  // mxbai-embed-large, BGE English v1.5, snowflake-arctic-embed v1: an instruction on the query only.
  { match: /^mxbai-embed-large/, prefixes: { query: RETRIEVAL_INSTRUCTION, passage: '' } },
  { match: /^bge-(small|base|large)(-en)?(-v1\.5)?$/, prefixes: { query: RETRIEVAL_INSTRUCTION, passage: '' } },
  { match: /^snowflake-arctic-embed2/, prefixes: { query: 'query: ', passage: '' } },
  { match: /^snowflake-arctic-embed(?!2)/, prefixes: { query: RETRIEVAL_INSTRUCTION, passage: '' } },
  // e5 family, also as community Ollama ports (`…/intfloat-multilingual-e5-large`).
  { match: /^(intfloat-)?(multilingual-)?e5-/, prefixes: { query: 'query: ', passage: 'passage: ' } },
  // EmbeddingGemma: task-style prompts.
  { match: /^embeddinggemma/, prefixes: { query: 'task: search result | query: ', passage: 'title: none | text: ' } },
  // Qwen3-Embedding: an instruction on the query only (format from its model card).
  {
    match: /^qwen3-embedding/,
    prefixes: { query: 'Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:', passage: '' },
  },
];

/** `hf.co/owner/Name-GGUF:Q8_0` → `name-gguf`: last path segment, no tag, lower case. */
export function baseModelName(name: string): string {
  const last = name.split('/').pop() ?? name;
  return last.replace(/:[^:]*$/, '').toLowerCase();
}

/** The prefixes a remote model wants, by its name; none for models not in the table (OpenAI's, bge-m3, …). */
export function knownRemotePrefixes(name: string): Prefixes {
  const base = baseModelName(name);
  for (const k of KNOWN) if (k.match.test(base)) return { ...k.prefixes };
  return { ...prefixesFor(base) };
}

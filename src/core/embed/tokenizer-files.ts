import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type * as TokenizersModule from '@huggingface/tokenizers';

type Tokenizers = typeof TokenizersModule;
let tokenizers: Promise<Tokenizers> | undefined;

/**
 * tokenizers.js' Tokenizer of the model files in `dir` (tokenizer.json, tokenizer_config.json), built as
 * transformers.js' AutoTokenizer builds the one it wraps, and the parsed tokenizer_config.json. tokenizers.js is
 * imported on the first call, so hosts that never tokenize never load it.
 */
export async function readTokenizerFiles(dir: string): Promise<{ tokenizer: TokenizersModule.Tokenizer; config: Record<string, unknown> }> {
  const { Tokenizer } = await (tokenizers ??= import('@huggingface/tokenizers'));
  const [json, config] = await Promise.all(
    ['tokenizer.json', 'tokenizer_config.json'].map(
      async (file) => JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Record<string, unknown>,
    ),
  );
  return { tokenizer: new Tokenizer(json!, config!), config: config! };
}

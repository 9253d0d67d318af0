import type { Tokenizer } from '@huggingface/tokenizers';

/**
 * A model's tokenizer as the embedding worker uses transformers.js' (`PreTrainedTokenizer`), built on tokenizers.js'
 * Tokenizer alone (token-counter.ts readTokenizer), for the static models the worker loads without transformers.js
 * (bare-static.ts). It has what the worker's encoder reads (word-ids.ts: `_tokenizer`, `_encode_plus`,
 * `model_max_length`, `pad_token_id`, `padding_side`) and is callable as a batch with `padding: true, truncation:
 * true` (word-ids.ts tokenizerRows; with `text_pair`, a cross-encoder's query and passages), written after transformers.js 4.3's `PreTrainedTokenizer`: `_encode_plus` is the
 * Tokenizer's `encode` with the class's token types, the maximum length the config's `model_max_length`, rows cut
 * (specials included) and padded with the pad token's id. Only for the tokenizer classes transformers.js defines as
 * that base with at most `return_token_type_ids` set (BARE_TOKENIZER_CLASSES); the test compares the rows with
 * AutoTokenizer's.
 */

/**
 * Tokenizer classes (tokenizer_config.json `tokenizer_class`, without `Fast`; none: the base class) → whether they
 * return token type ids: those transformers.js 4.3 defines as `PreTrainedTokenizer` with nothing of their own but
 * `return_token_type_ids` (bare-tokenizer.test checks each against the library), among the embedding models' own.
 */
export const BARE_TOKENIZER_CLASSES: ReadonlyMap<string, boolean> = new Map([
  ['PreTrainedTokenizer', false],
  ['BertTokenizer', true],
  ['DistilBertTokenizer', false],
  ['ElectraTokenizer', true],
  ['MobileBertTokenizer', true],
  ['SqueezeBertTokenizer', true],
  ['ConvBertTokenizer', true],
  ['AlbertTokenizer', true],
  ['DebertaTokenizer', true],
  ['DebertaV2Tokenizer', true],
  ['MPNetTokenizer', false],
  ['RobertaTokenizer', false],
  ['XLMRobertaTokenizer', false],
  ['CamembertTokenizer', false],
]);

interface Encoded {
  input_ids: number[];
  attention_mask: number[];
  token_type_ids?: number[];
}

/** What the bare tokenizer is called with: a batch, padded and truncated, with an optional second text per row. */
export interface BareCallOptions {
  padding: true;
  truncation: true;
  return_tensor: false;
  text_pair?: string[];
}

export interface BareTokenizer {
  (texts: string[], options: BareCallOptions): Record<string, number[][]>;
  readonly _tokenizer: Tokenizer;
  readonly model_max_length: number;
  readonly pad_token_id: number | undefined;
  readonly padding_side: string;
  _encode_plus(text: string, options: { add_special_tokens: boolean; text_pair?: string | null }): Encoded;
}

/**
 * The first of `keys` the config gives a token for, as transformers.js reads it (getTokenFromConfig): a string, or an
 * AddedToken object's `content`; null when none. Another kind of object makes transformers.js throw: `false` here.
 */
function configToken(config: Record<string, unknown>, ...keys: string[]): string | null | false {
  for (const key of keys) {
    if (!Object.hasOwn(config, key)) continue;
    const item = config[key];
    if (!item) continue;
    if (typeof item !== 'object') return String(item);
    const { __type, content } = item as { __type?: unknown; content?: unknown };
    return __type === 'AddedToken' && typeof content === 'string' ? content : false;
  }
  return null;
}

/**
 * The bare tokenizer over `tokenizer` and its config, or undefined for a tokenizer class not in
 * BARE_TOKENIZER_CLASSES (transformers.js' own then tokenizes).
 */
export function bareTokenizer(tokenizer: Tokenizer, config: Record<string, unknown>): BareTokenizer | undefined {
  const named = config.tokenizer_class;
  const cls = typeof named === 'string' ? named.replace(/Fast$/, '') : named === undefined ? 'PreTrainedTokenizer' : undefined;
  const tokenTypes = cls === undefined ? undefined : BARE_TOKENIZER_CLASSES.get(cls);
  if (tokenTypes === undefined) return undefined;
  const maxLength = typeof config.model_max_length === 'number' ? config.model_max_length : Infinity;
  // transformers.js: the pad token, else the end-of-sequence token.
  const padToken = configToken(config, 'pad_token', 'eos_token');
  if (padToken === false) return undefined;
  const padId = padToken === null ? undefined : tokenizer.token_to_id(padToken);
  const paddingSide = typeof config.padding_side === 'string' ? config.padding_side : 'right';

  const encodePlus = (
    text: string,
    { add_special_tokens, text_pair = null }: { add_special_tokens: boolean; text_pair?: string | null },
  ): Encoded => {
    const { ids, attention_mask, token_type_ids } = tokenizer.encode(text, {
      text_pair,
      add_special_tokens,
      return_token_type_ids: tokenTypes,
    });
    return { input_ids: ids, attention_mask, ...(token_type_ids ? { token_type_ids } : {}) };
  };
  const call = (texts: string[], options: BareCallOptions) => {
    if (options.padding !== true || options.truncation !== true || options.return_tensor !== false) {
      throw new Error('the bare tokenizer pads and truncates batches only');
    }
    if (texts.length === 0) throw new Error('text array must be non-empty');
    const pairs = options.text_pair;
    if (pairs && pairs.length !== texts.length) throw new Error('text and text_pair must have the same length');
    const rows = texts.map((t, i) => encodePlus(t, { add_special_tokens: true, text_pair: pairs ? pairs[i] : null }));
    let width = 0;
    for (const r of rows) width = Math.max(width, r.input_ids.length);
    width = Math.min(width, maxLength);
    const keys = Object.keys(rows[0]!) as Array<keyof Encoded>;
    for (const row of rows) {
      const len = row.input_ids.length;
      if (len === width) continue;
      for (const key of keys) {
        const values = row[key]!;
        if (len > width) row[key] = values.slice(0, width);
        else {
          const fill = key === 'input_ids' ? padId : 0;
          // transformers.js pads with the id it has (undefined without a pad token: the tensor then fails).
          if (fill === undefined) throw new Error('the tokenizer has no pad token');
          const padding = new Array<number>(width - len).fill(fill);
          row[key] = paddingSide === 'right' ? values.concat(padding) : padding.concat(values);
        }
      }
    }
    const out: Record<string, number[][]> = {};
    for (const key of keys) out[key] = rows.map((r) => r[key]!);
    return out;
  };
  return Object.assign(call, {
    _tokenizer: tokenizer,
    model_max_length: maxLength,
    pad_token_id: padId,
    padding_side: paddingSide,
    _encode_plus: encodePlus,
  });
}

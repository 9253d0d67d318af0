import { estimateTokens } from '../text/token-estimate.js';
import type { TokenCounter } from './types.js';

export { estimateTokens } from '../text/token-estimate.js';

/** The token estimate (text/token-estimate.ts) as a TokenCounter (`id: 'estimate'`), for when no model tokenizer is at hand. */
export const estimateTokenCounter: TokenCounter = {
  id: 'estimate',
  count: estimateTokens,
  // Whitespace ends a word and costs nothing.
  additive: true,
};

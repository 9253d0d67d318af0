import fs from 'node:fs';
import path from 'node:path';
import { specialAddedToken } from './fixture-vocab.js';

/**
 * A SentencePiece-style tokenizer (NFKC, Metaspace, Unigram, XLM-R's template), as multilingual embedding models
 * (e5, bge-m3) ship it, with a small vocabulary: English, Russian and Chinese pieces, every other character <unk>.
 * Whitespace becomes one space, as their precompiled normalizer makes it.
 */
export function writeUnigramTokenizer(dir: string): void {
  const pieces = [
    '▁',
    '▁the',
    '▁harbor',
    'har',
    'bor',
    '▁fee',
    's',
    '▁та',
    'мож',
    'ен',
    'ной',
    '▁海关',
    '海',
    '关',
    '清',
    ',',
    '.',
    'e',
    'a',
    't',
  ];
  const vocab: Array<[string, number]> = [
    ['<s>', 0],
    ['<pad>', 0],
    ['</s>', 0],
    ['<unk>', 0],
    ...pieces.map((p, i): [string, number] => [p, -1 - i / 4]),
  ];
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [specialAddedToken('<s>', 0), specialAddedToken('<pad>', 1), specialAddedToken('</s>', 2), specialAddedToken('<unk>', 3)],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' }] },
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '<s>', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '</s>', type_id: 0 } },
      ],
      pair: [{ Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
      special_tokens: { '<s>': { id: '<s>', ids: [0], tokens: ['<s>'] }, '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] } },
    },
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 3, vocab, byte_fallback: false },
  };
  const config = {
    tokenizer_class: 'XLMRobertaTokenizer',
    model_max_length: 512,
    bos_token: '<s>',
    eos_token: '</s>',
    unk_token: '<unk>',
    pad_token: '<pad>',
  };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(json));
  fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify(config));
}

import { ErrorCode, McpError, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { RagClient } from '../shared/contract/index.js';
import { docUri } from './resources.js';

export const PROMPTS: Prompt[] = [
  {
    name: 'answer_with_citations',
    title: 'Answer from the knowledge bases, with citations',
    description: 'Walks you through list_accessible_kbs → search → get_document → an answer that cites its sources',
    arguments: [
      { name: 'question', description: 'The question to answer', required: true },
      { name: 'kb_id', description: 'Knowledge base to use (default: find the right one)', required: false },
    ],
  },
  {
    name: 'summarize_document',
    title: 'Summarise a document',
    description: 'A summary of one document, with its key points and where they are',
    arguments: [
      { name: 'kb_id', description: 'Knowledge base of the document', required: true },
      { name: 'doc_id', description: 'The document', required: true },
      { name: 'length', description: 'short (default), medium or long', required: false },
    ],
  },
];

/** Check prompt arguments like a schema would: unknown prompts and missing required arguments are InvalidParams. */
export function checkPromptArgs(name: string, args: Record<string, string>): Record<string, string> {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  for (const a of prompt.arguments ?? []) {
    if (a.required && !(typeof args[a.name] === 'string' && args[a.name]!.trim())) {
      throw new McpError(ErrorCode.InvalidParams, `Prompt ${name} needs the argument "${a.name}"`);
    }
  }
  return args;
}

/** Longest document text put into a prompt; longer ones are cut with a note. */
const MAX_PROMPT_CHARS = 200_000;

function answerPrompt(question: string, kbId: string | undefined): GetPromptResult {
  const where = kbId
    ? `Use the knowledge base "${kbId}" (search_kb with kb_id "${kbId}").`
    : 'First call list_accessible_kbs and pick the knowledge bases whose description fits; if unsure, use search_all_accessible_kbs.';
  const text = [
    `Answer this question from the ragdesk knowledge bases: ${question}`,
    '',
    'Steps:',
    `1. ${where}`,
    '2. Search with a focused query (search_kb, or search_all_accessible_kbs). Try one or two rephrasings, or mode "fts" for exact names, codes and numbers, if the first hits do not answer it. Use filter_expr for metadata constraints (get_kb_info lists the fields).',
    '3. For the most relevant hits, call get_document with the doc_id and chunk_index (window 1-2) to read the surrounding text.',
    '4. Answer only from what you read. After each claim cite the source as [title or doc_id, page/heading/lines when given]. If the knowledge bases do not contain the answer, say so and say what you searched for.',
  ].join('\n');
  return { description: 'Answer with citations from the knowledge bases', messages: [{ role: 'user', content: { type: 'text', text } }] };
}

async function summarizePrompt(client: RagClient, kbId: string, docId: string, length: string): Promise<GetPromptResult> {
  const doc = await client.getDocument({ kb_id: kbId, doc_id: docId });
  const cut = doc.content.length > MAX_PROMPT_CHARS;
  const words = length === 'long' ? '600-900 words' : length === 'medium' ? '250-400 words' : '100-150 words';
  const instructions = [
    `Summarise the document "${doc.title || doc.doc_id}" (${kbId}/${doc.doc_id}${doc.source ? `, source: ${doc.source}` : ''}) in ${words}.`,
    'Start with one sentence on what it is, then the key points as a short list; keep names, numbers and dates exact;',
    'say where each point is (section heading or page) when the text shows it. Do not add facts that are not in the document.',
    cut
      ? `Only the first ${MAX_PROMPT_CHARS} of ${doc.content.length} characters are included; say that the summary covers that part.`
      : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    description: `Summary of ${doc.title || doc.doc_id}`,
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: docUri(kbId, doc.doc_id),
            mimeType: doc.parser === 'markdown' ? 'text/markdown' : 'text/plain',
            text: cut ? doc.content.slice(0, MAX_PROMPT_CHARS) : doc.content,
          },
        },
      },
      { role: 'user', content: { type: 'text', text: instructions } },
    ],
  };
}

export async function getPrompt(client: RagClient, name: string, args: Record<string, string>): Promise<GetPromptResult> {
  if (name === 'answer_with_citations') return answerPrompt(args.question!, args.kb_id?.trim() || undefined);
  if (name === 'summarize_document') return summarizePrompt(client, args.kb_id!, args.doc_id!, args.length ?? 'short');
  throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
}

import type { AnyTool } from '../tool-kit.js';
import { addDocumentChunked } from './add-document-chunked.js';
import { addDocument } from './add-document.js';
import { addDocumentsBatch } from './add-documents-batch.js';
import { askKnowledgeBase } from './ask-knowledge-base.js';
import { deleteDocument } from './delete-document.js';
import { getDocument } from './get-document.js';
import { getKbInfo } from './get-kb-info.js';
import { kbDiagnostic } from './kb-diagnostic.js';
import { kbStats } from './kb-stats.js';
import { listAccessibleKbs } from './list-accessible-kbs.js';
import { listDocuments } from './list-documents.js';
import { searchAllAccessibleKbs } from './search-all-accessible-kbs.js';
import { searchKb } from './search-kb.js';

/** Every tool, in the order clients list them. Names are the interface agents already use: keep them. */
export const TOOLS: readonly AnyTool[] = [
  listAccessibleKbs,
  getKbInfo,
  searchKb,
  searchAllAccessibleKbs,
  getDocument,
  listDocuments,
  addDocument,
  addDocumentChunked,
  addDocumentsBatch,
  deleteDocument,
  askKnowledgeBase,
  kbStats,
  kbDiagnostic,
] as unknown as AnyTool[];

export const TOOL_NAMES = TOOLS.map((t) => t.name);

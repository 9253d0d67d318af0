import { z } from 'zod';
import {
  AddBatchInputSchema,
  AddBatchResultSchema,
  AddDocumentInputSchema,
  AddFileInputSchema,
  AddResultSchema,
  DeleteResultSchema,
  DocRefSchema,
  DocumentSchema,
  ListChunksInputSchema,
  ListChunksResultSchema,
  ListDocumentsInputSchema,
  ListDocumentsResultSchema,
  PreviewInputSchema,
  PreviewResultSchema,
  UploadFileInputSchema,
} from './documents.js';
import { CreateKbInputSchema, KbRefSchema, KbSchema, KbSummarySchema, UpdateKbInputSchema } from './kb.js';
import {
  ApiKeyInfoSchema,
  CreatedKeySchema,
  CreateKeyInputSchema,
  ListActivityInputSchema,
  ListActivityResultSchema,
  RevokeKeyInputSchema,
  RevokeKeyResultSchema,
} from './keys.js';
import { clientOf, type ClientOf, type OpKind, type OpSpec, type Transport } from './op.js';
import {
  DownloadOcrLanguagesInputSchema,
  ImportOcrLanguagesInputSchema,
  ImportOcrLanguagesResultSchema,
  OcrLanguagesSchema,
} from './ocr.js';
import { HealthReportInputSchema, HealthReportSchema } from './health.js';
import { JobRefSchema, JobSchema, ListJobsInputSchema, ListJobsResultSchema, ResumeJobsResultSchema } from './jobs.js';
import { EvalKbInputSchema, EvalKbResultSchema } from './eval.js';
import { AddFilesInputSchema, AddFilesResultSchema, ProgressRefSchema, ProgressSchema } from './files.js';
import { ImportedModelSchema, ImportModelInputSchema } from './model-import.js';
import { CancelModelChangeResultSchema, ChangeKbModelInputSchema, ModelChangeSchema, ModelChangeStatusSchema } from './model-change.js';
import { HighlightTermsInputSchema, HighlightTermsSchema, SearchInputSchema, SearchResultSchema } from './search.js';
import {
  AddSourceInputSchema,
  ListSourcesInputSchema,
  RemoveSourceInputSchema,
  RemoveSourceResultSchema,
  SourceRefSchema,
  SourceSchema,
  SyncSourceInputSchema,
  SyncSourceResultSchema,
} from './sources.js';
import {
  DiagnosticSchema,
  DocumentFileSchema,
  IndexingStateSchema,
  SetIndexingPausedInputSchema,
  LoadModelInputSchema,
  ModelPresetSchema,
  ModelStatusSchema,
  ParserInfoSchema,
  StatsResultSchema,
} from './system.js';

export * from './common.js';
export * from './filter-fields.js';
export * from './op.js';
export * from './documents.js';
export * from './kb.js';
export * from './keys.js';
export * from './model-change.js';
export * from './model-import.js';
export * from './search.js';
export * from './health.js';
export * from './jobs.js';
export * from './sources.js';
export * from './system.js';
export * from './ocr.js';
export * from './files.js';
export * from './eval.js';

const Empty = z.object({}).strict();

function op<I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
  kind: OpKind,
  summary: string,
  extra: Pick<OpSpec, 'ownerFields' | 'keyNeedsKb' | 'ingests'> = {},
): OpSpec<I, O> {
  return { input, output, kind, summary, ...extra };
}

/**
 * Every operation, declared once. Core services implement it; the IPC bridge, `/api/:method` and the
 * in-process client are generated from this list; each boundary re-validates with these schemas.
 * `kind` is what an API key needs: `read`/`write` on the KB named in the input (or every KB), `admin`: owner only.
 */
export const contract = {
  listKbs: op(Empty, z.array(KbSummarySchema), 'read', 'List knowledge bases with document and chunk counts'),
  getKb: op(KbRefSchema, KbSummarySchema, 'read', 'One knowledge base'),
  createKb: op(CreateKbInputSchema, KbSchema, 'admin', 'Create a knowledge base'),
  updateKb: op(UpdateKbInputSchema, KbSchema, 'admin', 'Edit a knowledge base'),
  deleteKb: op(KbRefSchema, z.object({ kb_id: z.string(), deleted: z.boolean() }), 'admin', 'Delete a knowledge base and all it holds'),
  addDocument: op(AddDocumentInputSchema, AddResultSchema, 'write', 'Add a document given as text', { ingests: true }),
  addFile: op(AddFileInputSchema, AddResultSchema, 'write', 'Add a file from this machine', { ownerFields: ['path'], ingests: true }),
  uploadFile: op(UploadFileInputSchema, AddResultSchema, 'write', 'Add a file sent as bytes', { ingests: true }),
  addDocumentsBatch: op(AddBatchInputSchema, AddBatchResultSchema, 'write', 'Add up to 500 documents; one result each', { ingests: true }),
  getDocument: op(DocRefSchema, DocumentSchema, 'read', 'A document with its full content'),
  listDocuments: op(ListDocumentsInputSchema, ListDocumentsResultSchema, 'read', 'Documents, newest first'),
  deleteDocument: op(DocRefSchema, DeleteResultSchema, 'write', 'Delete a document and its chunks'),
  listChunks: op(ListChunksInputSchema, ListChunksResultSchema, 'read', 'The chunks of a document'),
  preview: op(PreviewInputSchema, PreviewResultSchema, 'read', 'How a text or file would be chunked; writes nothing', {
    ownerFields: ['path'],
    keyNeedsKb: true,
  }),
  search: op(SearchInputSchema, SearchResultSchema, 'read', 'Search one, several or all knowledge bases'),
  highlightTerms: op(HighlightTermsInputSchema, HighlightTermsSchema, 'read', 'What to mark in hits for a query (stems and exact terms)'),
  listParsers: op(Empty, z.array(ParserInfoSchema), 'read', 'Parsers and the formats they take'),
  listModelPresets: op(Empty, z.array(ModelPresetSchema), 'read', 'Embedding and rerank model presets'),
  modelStatus: op(Empty, z.array(ModelStatusSchema), 'read', "State of the models the caller's KBs use, and the reranker"),
  loadModel: op(LoadModelInputSchema, ModelStatusSchema, 'admin', 'Download (if allowed) and load a model'),
  stats: op(Empty, StatsResultSchema, 'read', 'Per-KB documents, chunks, size, model and last update'),
  diagnostic: op(Empty, DiagnosticSchema, 'read', 'Index and model state, versions, warnings (store paths for the owner only)'),
  createKey: op(CreateKeyInputSchema, CreatedKeySchema, 'admin', 'Create an API key; the key is shown once'),
  listKeys: op(Empty, z.array(ApiKeyInfoSchema), 'admin', 'API keys with their rights (never the keys themselves)'),
  revokeKey: op(RevokeKeyInputSchema, RevokeKeyResultSchema, 'admin', 'Revoke an API key by id or name'),
  listActivity: op(ListActivityInputSchema, ListActivityResultSchema, 'admin', 'The latest MCP tool calls, newest first'),
  changeKbModel: op(
    ChangeKbModelInputSchema,
    ModelChangeSchema,
    'admin',
    "Change a KB's embedding model: re-embed into a shadow table in the background, swap when done",
  ),
  modelChangeStatus: op(
    KbRefSchema,
    ModelChangeStatusSchema,
    'read',
    "A KB's current or latest model change: state, chunks done/total, ETA",
  ),
  cancelModelChange: op(
    KbRefSchema,
    CancelModelChangeResultSchema,
    'admin',
    'Cancel a model change: drop the shadow table, keep the old index',
  ),
  addSource: op(AddSourceInputSchema, SourceSchema, 'admin', 'Add a folder source to a KB: synced now, watched while ragdesk runs'),
  listSources: op(ListSourcesInputSchema, z.array(SourceSchema), 'read', 'Folder sources with their state, last sync and counts'),
  removeSource: op(RemoveSourceInputSchema, RemoveSourceResultSchema, 'admin', 'Remove a folder source (and, by default, its documents)'),
  syncSource: op(
    SyncSourceInputSchema,
    SyncSourceResultSchema,
    'admin',
    'Sync a folder source now: add new, re-index changed, delete removed files',
  ),
  pauseSource: op(SourceRefSchema, SourceSchema, 'admin', 'Pause a folder source: no watching, a running sync stops after its batch'),
  resumeSource: op(SourceRefSchema, SourceSchema, 'admin', 'Resume a paused folder source (and its interrupted sync)'),
  listJobs: op(ListJobsInputSchema, ListJobsResultSchema, 'read', 'Ingestion jobs with progress (files, chunks, bytes, ETA), newest first'),
  cancelJob: op(JobRefSchema, JobSchema, 'admin', 'Cancel an ingestion job; what it wrote stays'),
  healthReport: op(HealthReportInputSchema, HealthReportSchema, 'read', 'Per-file ingestion health of a KB: ok, skipped, failed and why'),
  pauseIndexing: op(SetIndexingPausedInputSchema, IndexingStateSchema, 'admin', 'Pause or resume indexing: writes wait, reads go on'),
  indexingState: op(Empty, IndexingStateSchema, 'read', 'Whether indexing is paused, and ingest calls in flight'),
  documentFile: op(DocRefSchema, DocumentFileSchema, 'admin', 'The file on this machine a document came from'),
  addFiles: op(AddFilesInputSchema, AddFilesResultSchema, 'write', 'Add files, folders or globs on this machine as one ingestion job', {
    ownerFields: ['paths'],
    ingests: true,
  }),
  getProgress: op(ProgressRefSchema, ProgressSchema, 'admin', 'Progress of a long operation called with a progress_token'),
  resumeJobs: op(Empty, ResumeJobsResultSchema, 'admin', 'Finish every interrupted ingestion job now (folder syncs and file jobs)'),
  evalKb: op(
    EvalKbInputSchema,
    EvalKbResultSchema,
    'admin',
    'Retrieval quality of a KB on judged queries, and of other models on re-embedded copies',
  ),
  importModel: op(
    ImportModelInputSchema,
    ImportedModelSchema,
    'admin',
    'Import a model folder for offline use: checked, copied, then loaded from disk',
  ),
  ocrLanguages: op(Empty, OcrLanguagesSchema, 'read', 'OCR languages: which are on this machine, which a scan would download'),
  importOcrLanguages: op(ImportOcrLanguagesInputSchema, ImportOcrLanguagesResultSchema, 'admin', 'Import OCR language data from a folder', {
    ownerFields: ['path'],
  }),
  downloadOcrLanguages: op(
    DownloadOcrLanguagesInputSchema,
    OcrLanguagesSchema,
    'admin',
    'Download OCR language data once, for offline use',
  ),
} as const;

export type Contract = typeof contract;
export type MethodName = keyof Contract;
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Contract[M]['output']>;
/** An operation's input after parsing (defaults filled in): what services receive from the dispatcher. */
export type ParsedInput<M extends MethodName> = z.output<Contract[M]['input']>;
export const METHOD_NAMES = Object.keys(contract) as MethodName[];

/** Whether `name` is one of the contract's operations (own keys only: never `constructor` or `__proto__`). */
export const isMethodName = (name: string): name is MethodName => Object.hasOwn(contract, name);

/** A client of the contract: the same shape in-process, over IPC and over HTTP. */
export type RagClient = ClientOf<Contract>;

/** A RagClient over any transport: `(method, input) → output`. */
export const ragClient = (call: Transport): RagClient => clientOf(contract, call);

import type { contract } from '../../shared/contract/index.js';
import { type ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { activityLogFor } from '../activity/activity-log.js';
import { keyStoreFor } from '../auth/key-store.js';
import { readableKbs } from '../auth/scope.js';
import { dataPaths } from '../config/data-dir.js';
import type { HealthStore } from '../health/health-store.js';
import { healthReport } from '../health/health-store.js';
import { directFileRecorder } from '../health/direct-files.js';
import { addFiles } from '../jobs/add-files.js';
import type { JobManager } from '../jobs/job-manager.js';
import { progressOf } from '../jobs/progress.js';
import { resumeJobs } from '../sources/resume-jobs.js';
import { evalKb } from '../eval/eval-kb-op.js';
import { listParsers } from '../parse/registry.js';
import { search } from '../search/search-service.js';
import type { CoreContext } from '../services/context.js';
import * as docs from '../services/document-service.js';
import { documentFile } from '../services/document-file.js';
import * as kbs from '../services/kb-service.js';
import { cancelModelChange, changeKbModel, modelChangeStatus } from '../services/model-change.js';
import { healthForKey, jobForKey, kbForKey, sourceForKey } from '../services/key-view.js';
import { importModel } from '../services/model-import.js';
import { downloadOcrLanguages, importOcrLanguages, ocrLanguages } from '../services/ocr-languages.js';
import { preview } from '../services/preview-service.js';
import { diagnostic, modelStatus, stats } from '../services/system-service.js';
import type { SourceManager } from '../sources/source-manager.js';
import { highlightTerms } from '../text/highlight-terms.js';
import type { Handlers } from './dispatcher.js';

/** What the operations run on: the engine's context and its long-lived parts. */
export interface CoreParts {
  ctx: CoreContext;
  jobs: JobManager;
  health: HealthStore;
  sources: SourceManager;
}

type In<M extends keyof typeof contract> = ParsedInput<M>;

/**
 * Every contract operation, implemented over the services. Input is parsed and authorised by the dispatcher;
 * operations that name no KB get the caller's scope and return only what it may read.
 */
export function coreHandlers({ ctx, jobs, health, sources }: CoreParts): Handlers<typeof contract> {
  const keys = () => keyStoreFor(dataPaths(ctx.options.dataDir).keys);
  return {
    listKbs: async (_i, scope) => {
      const list = await kbs.listKbs(ctx, readableKbs(scope));
      return scope.owner ? list : list.map(kbForKey);
    },
    getKb: async (i: In<'getKb'>, scope) => {
      const kb = await kbs.summarizeKb(ctx, ctx.store.registry.get(i.kb_id));
      return scope.owner ? kb : kbForKey(kb);
    },
    createKb: (i) => kbs.createKb(ctx, i),
    updateKb: (i) => kbs.updateKb(ctx, i),
    deleteKb: async (i) => {
      ctx.store.registry.get(i.kb_id);
      // Grants go first: a KB made later under the same id is not readable by the keys of this one.
      keys().forgetKb(i.kb_id);
      await sources.dropKb(i.kb_id);
      return kbs.deleteKb(ctx, i.kb_id);
    },
    addDocument: (i) => docs.addDocument(ctx, i),
    addFile: (i) => docs.addFile(ctx, i, directFileRecorder(health, ctx)),
    uploadFile: async (i) => {
      // A scan's OCR pages, for a client following the upload with getProgress.
      const report = progressOf(ctx).reporter(i.progress_token);
      try {
        return await docs.uploadFile(ctx, i, (p) => report('ocr', p.done, p.total, i.filename), directFileRecorder(health, ctx));
      } finally {
        report.finish();
      }
    },
    addDocumentsBatch: (i) => docs.addDocumentsBatch(ctx, i),
    getDocument: (i) => docs.getDocument(ctx, i.kb_id, i.doc_id),
    listDocuments: (i) => docs.listDocuments(ctx, i),
    deleteDocument: (i) => docs.deleteDocument(ctx, i.kb_id, i.doc_id),
    listChunks: (i) => docs.listChunks(ctx, i),
    preview: (i) => preview(ctx, i),
    search: (i, scope) => {
      const allowed = readableKbs(scope);
      return search(ctx, i, allowed ? { allowed } : {});
    },
    highlightTerms: async (i) => highlightTerms(i.query, i.texts),
    listParsers: async () => listParsers(),
    listModelPresets: async () => ctx.models.presets(),
    modelStatus: async (_i, scope) => modelStatus(ctx, readableKbs(scope)),
    loadModel: async (i) => {
      if (i.kind === 'rerank') await ctx.models.getReranker(i.model, { allowDownload: i.allow_download });
      else await ctx.models.getEmbedder(i.model, { allowDownload: i.allow_download });
      const status = ctx.models.status().find((s) => s.model === i.model && s.kind === i.kind);
      if (!status) throw new RagError('internal', `no status for model ${i.model}`);
      return status;
    },
    stats: (_i, scope) => stats(ctx, readableKbs(scope)),
    diagnostic: (_i, scope) => diagnostic(ctx, readableKbs(scope)),
    createKey: async (i) => keys().create(i),
    listKeys: async () => keys().list(),
    revokeKey: async (i) => keys().revoke(i.key),
    listActivity: async (i) => activityLogFor(dataPaths(ctx.options.dataDir).activity).list(i),
    changeKbModel: (i) => changeKbModel(ctx, i),
    modelChangeStatus: async (i) => modelChangeStatus(ctx, i.kb_id),
    cancelModelChange: (i) => cancelModelChange(ctx, i.kb_id),
    addSource: (i) => sources.add(i),
    listSources: async (i, scope) => {
      const list = sources.list(i.kb_id, readableKbs(scope));
      return scope.owner ? list : list.map(sourceForKey);
    },
    removeSource: (i) => sources.remove(i),
    syncSource: (i) => sources.syncOp(i),
    pauseSource: (i) => sources.setPaused(i.source_id, true),
    resumeSource: (i) => sources.setPaused(i.source_id, false),
    listJobs: async (i, scope) => {
      const list = await jobs.list(i, readableKbs(scope));
      return scope.owner ? list : { ...list, jobs: list.jobs.map(jobForKey) };
    },
    cancelJob: (i) => jobs.cancel(i.job_id),
    healthReport: async (i, scope) => {
      const report = await healthReport(ctx, health, i);
      if (scope.owner) return report;
      // Folders of this machine a message may name: the data dir (models live in it) and the KB's source folders.
      return healthForKey(report, [ctx.options.dataDir, ...sources.list(i.kb_id).map((s) => s.path)]);
    },
    pauseIndexing: async (i) => {
      ctx.pause.setPaused(i.paused);
      return { paused: ctx.pause.isPaused, active: ctx.pause.active };
    },
    indexingState: async () => ({ paused: ctx.pause.isPaused, active: ctx.pause.active }),
    documentFile: async (i) => ({
      path: await documentFile(ctx, sources.list(i.kb_id), i.kb_id, i.doc_id, (kb, source) => health.ledger(kb, source)),
    }),
    addFiles: (i) => addFiles({ ctx, jobs, health }, i, progressOf(ctx).reporter(i.progress_token)),
    getProgress: async (i) => progressOf(ctx).get(i.token),
    resumeJobs: () => resumeJobs({ ctx, jobs, health }, sources),
    evalKb: (i) => evalKb(ctx, i, progressOf(ctx).reporter(i.progress_token)),
    importModel: (i) => importModel(ctx, i),
    ocrLanguages: async () => ocrLanguages(ctx),
    importOcrLanguages: async (i) => importOcrLanguages(ctx, i),
    downloadOcrLanguages: (i) => downloadOcrLanguages(ctx, i),
  };
}

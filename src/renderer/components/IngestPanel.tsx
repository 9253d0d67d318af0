import { Alert, Button, Checkbox, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChunkingConfig, Kb } from '../../shared/contract/index.js';
import { useApi } from '../api/context.js';
import { fileToBase64, type PickedFile } from '../lib/files.js';
import { followProgress, progressToken } from '../lib/follow-progress.js';
import { runUploads, type UploadJob, type UploadTally } from '../lib/upload-queue.js';
import { ChunkingFields, chunkingValid } from './ChunkingFields.js';
import { ChunkPreview } from './ChunkPreview.js';
import { DropZone } from './DropZone.js';
import { PausedBanner } from './PausedBanner.js';
import { UploadList } from './UploadList.js';

let nextId = 0;
const chunkKey = (id: string, c: ChunkingConfig) => `${id}|${c.strategy}|${c.chunk_size}|${c.chunk_overlap}`;

/** Drop or pick files, preview their chunks, then add them one at a time with per-file progress. */
export function IngestPanel({ kb, onAdded }: { kb: Kb; onAdded: () => void }) {
  const { t } = useTranslation();
  const { client, desktop } = useApi();
  const [jobs, setJobs] = useState<UploadJob[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [chunking, setChunking] = useState<ChunkingConfig>(kb.chunking);
  const [overwrite, setOverwrite] = useState(false);
  const [running, setRunning] = useState(false);
  const [summary, setSummary] = useState<UploadTally | null>(null);
  const files = useRef(new Map<string, File>());
  const base64Cache = useRef(new Map<string, Promise<string>>());
  const chunkCounts = useRef(new Map<string, number>());
  const abort = useRef<AbortController | null>(null);

  const base64 = useCallback((id: string) => {
    let p = base64Cache.current.get(id);
    if (!p) {
      const file = files.current.get(id);
      p = file ? fileToBase64(file) : Promise.reject(new Error('file gone'));
      base64Cache.current.set(id, p);
    }
    return p;
  }, []);

  function addFiles(picked: PickedFile[]) {
    setSummary(null);
    const added: UploadJob[] = picked.map(({ file, path }) => {
      const id = `f${++nextId}`;
      files.current.set(id, file);
      return { id, path, size: file.size, stage: 'queued' };
    });
    // Rows of an earlier run make way for the new files.
    setJobs((prev) => [...prev.filter((j) => j.stage === 'queued'), ...added]);
    const first = added[0];
    if (first) setSelected((s) => (s && jobs.some((j) => j.id === s && j.stage === 'queued') ? s : first.id));
  }

  function remove(id: string) {
    files.current.delete(id);
    base64Cache.current.delete(id);
    setJobs((prev) => prev.filter((j) => j.id !== id));
    setSelected((s) => (s === id ? null : s));
  }

  function clear() {
    files.current.clear();
    base64Cache.current.clear();
    chunkCounts.current.clear();
    setJobs([]);
    setSelected(null);
    setSummary(null);
  }

  const update = useCallback((id: string, patch: Partial<UploadJob>) => {
    setJobs((prev) => prev.map((j) => (j.id === id ? { ...j, ...patch } : j)));
  }, []);

  async function commit() {
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    setSummary(null);
    const c = chunking;
    const filenameOf = (job: UploadJob) => job.path.split('/').pop() ?? job.path;
    try {
      const tally = await runUploads(
        jobs.filter((j) => j.stage === 'queued'),
        {
          signal: controller.signal,
          onUpdate: update,
          prepare: async (job) => {
            const cached = chunkCounts.current.get(chunkKey(job.id, c));
            if (cached !== undefined) return { chunks: cached };
            const r = await client.preview({ kb_id: kb.kb_id, filename: filenameOf(job), data_base64: await base64(job.id), chunking: c });
            return { chunks: r.chunks.length };
          },
          upload: async (job) => {
            // A scan reports its OCR pages while it uploads.
            const token = progressToken();
            const stop = followProgress(client.getProgress, token, (p) => {
              if (p.stage === 'ocr') update(job.id, { ocr: { done: p.done, total: p.total } });
            });
            try {
              const result = await client.uploadFile({
                kb_id: kb.kb_id,
                filename: job.path,
                data_base64: await base64(job.id),
                chunking: c,
                overwrite,
                progress_token: token,
                // Files from a folder keep their relative path as the id, so a/readme.md and b/readme.md do not collide.
                ...(job.path.includes('/') ? { doc_id: job.path } : {}),
              });
              onAdded();
              return result;
            } finally {
              stop();
            }
          },
        },
      );
      setSummary(tally);
    } finally {
      setRunning(false);
      abort.current = null;
      onAdded();
    }
  }

  const queued = jobs.filter((j) => j.stage === 'queued').length;
  const selectedJob = jobs.find((j) => j.id === selected);
  const finished = jobs.length > 0 && queued === 0 && !running;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="ingest-title">
      <Stack>
        <Title order={3} size="h4" id="ingest-title">
          {t('ingest.title')}
        </Title>
        {desktop && <PausedBanner desktop={desktop} />}
        <DropZone onFiles={addFiles} disabled={running} />
        {jobs.length > 0 && (
          <>
            <ChunkingFields value={chunking} onChange={setChunking} idPrefix="ingest" />
            <Grid>
              <Grid.Col span={{ base: 12, lg: 6 }}>
                <UploadList jobs={jobs} selected={selected} onSelect={setSelected} onRemove={remove} locked={running} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 6 }}>
                {selectedJob && queued > 0 ? (
                  <ChunkPreview
                    key={selectedJob.id}
                    kbId={kb.kb_id}
                    path={selectedJob.path}
                    base64={() => base64(selectedJob.id)}
                    chunking={chunking}
                    onChunks={(n) => {
                      chunkCounts.current.set(chunkKey(selectedJob.id, chunking), n);
                      update(selectedJob.id, { chunks: n });
                    }}
                  />
                ) : (
                  <Text size="sm" c="dimmed">
                    {queued > 0 ? t('ingest.selectToPreview') : t('ingest.progressLeft')}
                  </Text>
                )}
              </Grid.Col>
            </Grid>
            {summary && (
              <Alert
                color={summary.failed ? 'orange' : 'teal'}
                title={t('ingest.finished')}
                role="status"
                data-testid="ingest-summary"
                data-added={summary.done}
                data-failed={summary.failed}
              >
                {[
                  t('ingest.added', { count: summary.done }),
                  ...(summary.skipped ? [t('ingest.skipped', { count: summary.skipped })] : []),
                  ...(summary.failed ? [t('ingest.failed', { count: summary.failed })] : []),
                  ...(summary.cancelled ? [t('ingest.cancelled', { count: summary.cancelled })] : []),
                ].join(t('common.listSeparator'))}
              </Alert>
            )}
            <Group justify="space-between">
              <Checkbox
                label={t('ingest.replaceExisting')}
                checked={overwrite}
                onChange={(e) => setOverwrite(e.currentTarget.checked)}
                disabled={running}
              />
              <Group>
                {running ? (
                  <Button color="red" variant="light" onClick={() => abort.current?.abort()}>
                    {t('ingest.cancelRemaining')}
                  </Button>
                ) : (
                  <Button variant="default" onClick={clear}>
                    {finished ? t('ingest.done') : t('ingest.clear')}
                  </Button>
                )}
                {(queued > 0 || running) && (
                  <Button onClick={() => void commit()} loading={running} disabled={queued === 0 || !chunkingValid(chunking)}>
                    {t('ingest.addFiles', { count: queued })}
                  </Button>
                )}
              </Group>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}

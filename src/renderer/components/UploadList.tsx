import { ActionIcon, Badge, Group, Progress, Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../i18n/format.js';
import { stagePercent, type UploadJob, type UploadStage } from '../lib/upload-queue.js';
import { ErrorText } from './common.js';
import { IconX } from './icons.js';

const STAGE_LABEL = {
  queued: 'uploads.stageQueued',
  parse: 'uploads.stageParse',
  chunk: 'uploads.stageChunk',
  embed: 'uploads.stageEmbed',
  index: 'uploads.stageIndex',
  done: 'uploads.stageDone',
  skipped: 'uploads.stageSkipped',
  error: 'uploads.stageError',
  cancelled: 'uploads.stageCancelled',
} as const satisfies Record<UploadStage, string>;

const STAGE_COLOR: Partial<Record<UploadStage, string>> = {
  done: 'teal',
  skipped: 'gray',
  error: 'red',
  cancelled: 'gray',
  queued: 'blue',
};

/** Staged files with their stage parse → chunk → embed → index → done, or their error code and message. */
export function UploadList({
  jobs,
  selected,
  onSelect,
  onRemove,
  locked,
}: {
  jobs: UploadJob[];
  selected: string | null;
  onSelect: (id: string) => void;
  onRemove: (id: string) => void;
  locked: boolean;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Table verticalSpacing={6} aria-label={t('uploads.tableLabel')} data-testid="upload-list">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('uploads.colFile')}</Table.Th>
          <Table.Th>{t('uploads.colSize')}</Table.Th>
          <Table.Th>{t('uploads.colChunks')}</Table.Th>
          <Table.Th w="40%">{t('uploads.colProgress')}</Table.Th>
          <Table.Th>
            <span className="sr-only">{t('common.remove')}</span>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {jobs.map((job) => (
          <Table.Tr
            key={job.id}
            data-testid="upload-row"
            data-path={job.path}
            data-stage={job.stage}
            bg={selected === job.id ? 'var(--mantine-primary-color-light)' : undefined}
          >
            <Table.Td>
              <UnstyledButton
                onClick={() => onSelect(job.id)}
                aria-pressed={selected === job.id}
                aria-label={t('uploads.previewNamed', { file: job.path })}
              >
                <Text size="sm" fw={selected === job.id ? 600 : 400} style={{ overflowWrap: 'anywhere' }}>
                  {job.path}
                </Text>
              </UnstyledButton>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{f.bytes(job.size)}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{job.chunks === undefined ? '—' : f.number(job.chunks)}</Text>
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Badge size="sm" variant="light" color={STAGE_COLOR[job.stage] ?? 'indigo'} data-testid="upload-stage">
                  {t(STAGE_LABEL[job.stage])}
                </Badge>
                <Progress
                  value={stagePercent(job.stage)}
                  color={job.stage === 'error' ? 'red' : job.stage === 'done' ? 'teal' : undefined}
                  animated={['parse', 'chunk', 'embed', 'index'].includes(job.stage)}
                  style={{ flex: 1 }}
                  aria-label={`${job.path}: ${t(STAGE_LABEL[job.stage])}`}
                />
              </Group>
              {job.ocr && job.stage === 'embed' && (
                <Text size="xs" c="dimmed" mt={4} data-testid="upload-ocr">
                  {t('uploads.ocrPages', { done: job.ocr.done, total: job.ocr.total })}
                </Text>
              )}
              {job.error && (
                <Text size="xs" c="red" mt={4} component="div" data-testid="upload-error" data-code={job.error.code} role="alert">
                  <ErrorText error={job.error} context={{ file: job.path }} />
                </Text>
              )}
              {job.result && job.result.embedded === false && job.stage === 'done' && (
                <Text size="xs" c="dimmed" mt={4}>
                  {t('uploads.noVectorsYet')}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {!locked && job.stage === 'queued' && (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('uploads.removeNamed', { file: job.path })}
                  onClick={() => onRemove(job.id)}
                >
                  <IconX size={14} />
                </ActionIcon>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

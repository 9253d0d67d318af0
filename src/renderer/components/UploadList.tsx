import { ActionIcon, Badge, Code, Group, Progress, Table, Text, UnstyledButton } from '@mantine/core';
import { formatBytes } from '../lib/files.js';
import { stagePercent, type UploadJob, type UploadStage } from '../lib/upload-queue.js';
import { IconX } from './icons.js';

const STAGE_LABEL: Record<UploadStage, string> = {
  queued: 'ready',
  parse: 'parsing',
  chunk: 'chunking',
  embed: 'embedding + indexing',
  index: 'indexing',
  done: 'done',
  skipped: 'skipped (same content already stored)',
  error: 'error',
  cancelled: 'cancelled',
};

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
  return (
    <Table verticalSpacing={6} aria-label="Files to add" data-testid="upload-list">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>File</Table.Th>
          <Table.Th>Size</Table.Th>
          <Table.Th>Chunks</Table.Th>
          <Table.Th w="40%">Progress</Table.Th>
          <Table.Th>
            <span className="sr-only">Remove</span>
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
              <UnstyledButton onClick={() => onSelect(job.id)} aria-pressed={selected === job.id} aria-label={`Preview ${job.path}`}>
                <Text size="sm" fw={selected === job.id ? 600 : 400} style={{ overflowWrap: 'anywhere' }}>
                  {job.path}
                </Text>
              </UnstyledButton>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{formatBytes(job.size)}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{job.chunks ?? '—'}</Text>
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Badge size="sm" variant="light" color={STAGE_COLOR[job.stage] ?? 'indigo'} data-testid="upload-stage">
                  {STAGE_LABEL[job.stage]}
                </Badge>
                <Progress
                  value={stagePercent(job.stage)}
                  color={job.stage === 'error' ? 'red' : job.stage === 'done' ? 'teal' : undefined}
                  animated={['parse', 'chunk', 'embed', 'index'].includes(job.stage)}
                  style={{ flex: 1 }}
                  aria-label={`${job.path}: ${STAGE_LABEL[job.stage]}`}
                />
              </Group>
              {job.error && (
                <Text size="xs" c="red" mt={4} data-testid="upload-error" role="alert">
                  <Code color="red.1">{job.error.code}</Code> {job.error.message}
                </Text>
              )}
              {job.result && job.result.embedded === false && job.stage === 'done' && (
                <Text size="xs" c="dimmed" mt={4}>
                  Searchable by full text now; vectors are added when the model is ready.
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {!locked && job.stage === 'queued' && (
                <ActionIcon variant="subtle" color="gray" aria-label={`Remove ${job.path}`} onClick={() => onRemove(job.id)}>
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

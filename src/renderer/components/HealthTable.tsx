import { Badge, Group, Loader, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { HEALTH_STATUSES, type HealthEntry, type HealthStatus } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { useQuery } from '../lib/use-query.js';
import { EmptyHint, ErrorAlert, formatDate } from './common.js';
import { IconSearch } from './icons.js';

const COLOR: Record<HealthStatus, string> = {
  encrypted: 'red',
  corrupt: 'red',
  too_large: 'red',
  unsupported: 'red',
  error: 'red',
  no_text_layer: 'orange',
  empty: 'orange',
  duplicate: 'gray',
  decode_problem: 'yellow',
  language_not_covered: 'yellow',
  ocr_low_confidence: 'yellow',
  unchanged: 'teal',
  ok: 'teal',
};

const LABEL: Record<HealthStatus, string> = {
  encrypted: 'encrypted',
  corrupt: 'corrupt',
  too_large: 'too large',
  unsupported: 'unsupported',
  error: 'error',
  no_text_layer: 'scanned, no text',
  empty: 'empty',
  duplicate: 'duplicate',
  decode_problem: 'decode problem',
  language_not_covered: 'language not covered',
  ocr_low_confidence: 'OCR unsure',
  unchanged: 'unchanged',
  ok: 'ok',
};

function facts(e: HealthEntry): string {
  return [
    e.encoding
      ? `encoding ${e.encoding}${e.encoding_confidence !== undefined ? ` (${Math.round(e.encoding_confidence * 100)}%)` : ''}`
      : '',
    e.script ? `script ${e.script}` : '',
    e.ocr_pages ? `OCR ${e.ocr_pages} p.${e.ocr_confidence !== undefined ? ` (${Math.round(e.ocr_confidence * 100)}%)` : ''}` : '',
    e.chunks !== undefined ? `${e.chunks} chunks` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The KB's ingestion health: one row per file ingested through a folder source or `ragdesk add`, worst first. */
export function HealthTable({ kbId, refreshKey }: { kbId: string; refreshKey: number }) {
  const client = useClient();
  const [status, setStatus] = useState<string | null>('problems');
  const [text, setText] = useState('');
  const [needle] = useDebouncedValue(text.trim().toLowerCase(), 200);
  const report = useQuery(
    () =>
      client.healthReport({
        kb_id: kbId,
        limit: 2000,
        ...(status === 'problems' ? { problems: true } : status && status !== 'all' ? { status: [status as HealthStatus] } : {}),
      }),
    [client, kbId, status, refreshKey],
    { intervalMs: 5000 },
  );
  const rows = (report.data?.files ?? []).filter((e) => !needle || e.file.toLowerCase().includes(needle));
  const counts = report.data?.counts ?? {};
  const options = [
    { value: 'problems', label: 'Problems only' },
    { value: 'all', label: 'All files' },
    ...HEALTH_STATUSES.filter((s) => counts[s]).map((s) => ({ value: s, label: `${LABEL[s]} (${counts[s]})` })),
  ];

  return (
    <Stack component="section" aria-labelledby="health-title">
      <Group justify="space-between" align="flex-end">
        <div>
          <Text fw={600} size="lg" id="health-title">
            Ingestion health
          </Text>
          <Text size="sm" c="dimmed">
            {Object.keys(counts).length
              ? HEALTH_STATUSES.filter((s) => counts[s])
                  .map((s) => `${counts[s]} ${LABEL[s]}`)
                  .join(' · ')
              : 'Files added from a folder source or with ragdesk add show up here, with why any did not get in.'}
          </Text>
        </div>
        <Group>
          <Select aria-label="Filter by status" data={options} value={status} onChange={setStatus} w={220} allowDeselect={false} />
          <TextInput
            aria-label="Filter by file name"
            placeholder="File name"
            leftSection={<IconSearch size={14} />}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            w={200}
          />
        </Group>
      </Group>
      <ErrorAlert error={report.error} title="Could not read the health report" />
      {report.loading && !report.data ? (
        <Loader aria-label="Loading the health report" />
      ) : rows.length === 0 ? (
        <EmptyHint title={status === 'problems' ? 'No problems' : 'No files'}>
          {status === 'problems' ? 'Every file ingested so far went in fine.' : 'Nothing matches this filter.'}
        </EmptyHint>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped verticalSpacing="xs" aria-label="Ingestion health" data-testid="health-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Indexed</Table.Th>
                <Table.Th>Why</Table.Th>
                <Table.Th>Checked</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((e) => (
                <Table.Tr key={`${e.source_id ?? ''}:${e.file}`} data-status={e.status}>
                  <Table.Td style={{ overflowWrap: 'anywhere', minWidth: 160 }}>
                    {e.file}
                    {e.source_id && (
                      <Text size="xs" c="dimmed">
                        {e.source_id}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ minWidth: 170 }}>
                    <Badge color={COLOR[e.status]} variant="light" style={{ textTransform: 'none', maxWidth: 'none' }}>
                      {LABEL[e.status]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{e.indexed ? 'yes' : 'no'}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="sm">{e.message}</Text>
                    {facts(e) && (
                      <Text size="xs" c="dimmed">
                        {facts(e)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{formatDate(e.checked_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

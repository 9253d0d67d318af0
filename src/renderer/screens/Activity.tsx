import { Badge, Code, Group, Loader, Select, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { ActivityEntry } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { localizeError } from '../api/errors.js';
import { EmptyHint, ErrorAlert } from '../components/common.js';
import { IconActivity } from '../components/icons.js';
import { useFormat } from '../i18n/format.js';
import { navigate } from '../lib/router.js';
import { useQuery } from '../lib/use-query.js';

function summarizeArgs(args: Record<string, unknown>): string {
  if (typeof args.query === 'string') return args.query;
  return Object.entries(args)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ')
    .slice(0, 160);
}

const errorOf = (code: string) => ({ code, message: code });

/** Recent MCP tool calls (client, tool, query, hits, latency, errors), refreshed live. */
export function ActivityScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const client = useClient();
  const [live, setLive] = useState(true);
  const [tool, setTool] = useState<string | null>(null);
  const activity = useQuery(() => client.listActivity({ limit: 200, ...(tool ? { tool } : {}) }), [client, tool], {
    intervalMs: live ? 2000 : undefined,
  });
  const entries: ActivityEntry[] = activity.data?.entries ?? [];
  const tools = [...new Set(entries.map((e) => e.tool).concat(tool ? [tool] : []))].sort();

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('activity.title')}</Title>
        <Group>
          <Select
            placeholder={t('activity.allTools')}
            aria-label={t('activity.filterByTool')}
            data={tools}
            value={tool}
            onChange={setTool}
            clearable
            w={200}
          />
          <Switch label={t('activity.live')} checked={live} onChange={(e) => setLive(e.currentTarget.checked)} />
          {activity.loading && <Loader size="xs" aria-label={t('activity.refreshing')} />}
        </Group>
      </Group>
      <ErrorAlert error={activity.error} title={t('activity.readError')} />
      {activity.data && entries.length === 0 ? (
        <EmptyHint title={t('activity.emptyTitle')} icon={<IconActivity size={28} />}>
          <Trans
            i18nKey="activity.emptyText"
            components={{ link: <button type="button" className="link-button" onClick={() => navigate({ name: 'connect' })} /> }}
          />
        </EmptyHint>
      ) : (
        <Table.ScrollContainer minWidth={800}>
          <Table striped verticalSpacing="xs" aria-label={t('activity.tableLabel')} data-testid="activity-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('activity.colTime')}</Table.Th>
                <Table.Th>{t('activity.colClient')}</Table.Th>
                <Table.Th>{t('activity.colKey')}</Table.Th>
                <Table.Th>{t('activity.colTool')}</Table.Th>
                <Table.Th>{t('activity.colArgs')}</Table.Th>
                <Table.Th ta="right">{t('activity.colHits')}</Table.Th>
                <Table.Th ta="right">{t('activity.colLatency')}</Table.Th>
                <Table.Th>{t('activity.colResult')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((e, i) => (
                <Table.Tr key={`${e.time}-${i}`}>
                  <Table.Td>{f.time(e.time)}</Table.Td>
                  <Table.Td>
                    {e.client ?? '—'}{' '}
                    <Text span size="xs" c="dimmed">
                      {e.transport}
                    </Text>
                  </Table.Td>
                  <Table.Td>{e.key_name}</Table.Td>
                  <Table.Td>
                    <Code>{e.tool}</Code>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{summarizeArgs(e.args)}</Table.Td>
                  <Table.Td ta="right">{e.hits === null ? '—' : f.number(e.hits)}</Table.Td>
                  <Table.Td ta="right">{f.milliseconds(e.latency_ms)}</Table.Td>
                  <Table.Td>
                    {e.error_code ? (
                      <Badge color="red" style={{ textTransform: 'none' }} title={localizeError(errorOf(e.error_code), t, f).text}>
                        {e.error_code}
                      </Badge>
                    ) : (
                      <Badge color="teal" variant="light">
                        {t('activity.ok')}
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

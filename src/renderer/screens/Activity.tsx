import { Badge, Code, Group, Loader, Select, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { ActivityEntry } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { EmptyHint, ErrorAlert } from '../components/common.js';
import { IconActivity } from '../components/icons.js';
import { navigate } from '../lib/router.js';
import { useQuery } from '../lib/use-query.js';

function summarizeArgs(args: Record<string, unknown>): string {
  if (typeof args.query === 'string') return args.query;
  return Object.entries(args)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ')
    .slice(0, 160);
}

/** Recent MCP tool calls (client, tool, query, hits, latency, errors), refreshed live. */
export function ActivityScreen() {
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
        <Title order={2}>Activity</Title>
        <Group>
          <Select placeholder="All tools" aria-label="Filter by tool" data={tools} value={tool} onChange={setTool} clearable w={200} />
          <Switch label="Live" checked={live} onChange={(e) => setLive(e.currentTarget.checked)} />
          {activity.loading && <Loader size="xs" aria-label="Refreshing" />}
        </Group>
      </Group>
      <ErrorAlert error={activity.error} title="Could not read the activity log" />
      {activity.data && entries.length === 0 ? (
        <EmptyHint title="No agent calls yet" icon={<IconActivity size={28} />}>
          When an agent searches your knowledge bases over MCP, each call shows up here. Set one up under{' '}
          <button type="button" className="link-button" onClick={() => navigate({ name: 'connect' })}>
            Connect an agent
          </button>
          .
        </EmptyHint>
      ) : (
        <Table.ScrollContainer minWidth={800}>
          <Table striped verticalSpacing="xs" aria-label="MCP calls" data-testid="activity-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Client</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Tool</Table.Th>
                <Table.Th>Query / arguments</Table.Th>
                <Table.Th ta="right">Hits</Table.Th>
                <Table.Th ta="right">Latency</Table.Th>
                <Table.Th>Result</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((e, i) => (
                <Table.Tr key={`${e.time}-${i}`}>
                  <Table.Td>{new Date(e.time).toLocaleTimeString()}</Table.Td>
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
                  <Table.Td ta="right">{e.hits ?? '—'}</Table.Td>
                  <Table.Td ta="right">{Math.round(e.latency_ms)} ms</Table.Td>
                  <Table.Td>
                    {e.error_code ? (
                      <Badge color="red">{e.error_code}</Badge>
                    ) : (
                      <Badge color="teal" variant="light">
                        ok
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

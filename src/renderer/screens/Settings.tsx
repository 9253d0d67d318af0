import { Code, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { DEFAULT_CHUNKING } from '../../shared/contract/index.js';
import type { AppSettings } from '../../shared/desktop.js';
import { useApi } from '../api/context.js';
import { CopyIconButton, ErrorAlert } from '../components/common.js';
import { DesktopSettings } from '../components/DesktopSettings.js';
import { KeysSection } from '../components/KeysSection.js';
import { ModelsSection } from '../components/ModelsSection.js';
import { useQuery } from '../lib/use-query.js';

function DataSection() {
  const { client } = useApi();
  const diag = useQuery(() => client.diagnostic({}), [client]);
  if (diag.error?.code === 'permission_denied') return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="data-title">
      <Stack gap="xs">
        <Title order={3} size="h4" id="data-title">
          Data
        </Title>
        <ErrorAlert error={diag.error} title="Could not read diagnostics" />
        {diag.data && (
          <Table withRowBorders={false} verticalSpacing={2} aria-label="Data locations">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row" w={160}>
                  Data folder
                </Table.Th>
                <Table.Td>
                  <Code data-testid="data-dir">{diag.data.data_dir}</Code>{' '}
                  <CopyIconButton value={diag.data.data_dir ?? ''} label="Copy the data folder path" />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Store</Table.Th>
                <Table.Td>
                  <Code>{diag.data.store_path}</Code>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Versions</Table.Th>
                <Table.Td>
                  <Text size="sm">
                    {Object.entries(diag.data.versions)
                      .map(([k, v]) => `${k} ${v}`)
                      .join(' · ')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        )}
        {diag.data?.warnings.map((w) => (
          <Text key={w} size="sm" c="orange">
            {w}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}

function WebChunkDefaults() {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="chunk-title">
      <Stack gap="xs">
        <Title order={3} size="h4" id="chunk-title">
          Chunk defaults
        </Title>
        <Text size="sm">
          Each knowledge base keeps its own chunking defaults (edit them on the knowledge base page); new ones start at{' '}
          <Code>
            {DEFAULT_CHUNKING.strategy} · {DEFAULT_CHUNKING.chunk_size} tokens · overlap {DEFAULT_CHUNKING.chunk_overlap}
          </Code>
          . You can change the chunking of each upload in the preview before adding files. Server, port and tray settings live in the
          desktop app.
        </Text>
      </Stack>
    </Paper>
  );
}

export function SettingsScreen({ onThemeChange }: { onThemeChange: (t: AppSettings['theme']) => void }) {
  const { desktop } = useApi();
  return (
    <Stack>
      <Title order={2}>Settings</Title>
      <ModelsSection />
      {desktop ? <DesktopSettings desktop={desktop} onThemeChange={onThemeChange} /> : <WebChunkDefaults />}
      <KeysSection />
      <DataSection />
    </Stack>
  );
}

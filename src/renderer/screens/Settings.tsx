import { Code, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { DEFAULT_CHUNKING } from '../../shared/contract/index.js';
import type { AppSettings } from '../../shared/desktop.js';
import { useApi } from '../api/context.js';
import { chunkingSummary } from '../components/ChunkingFields.js';
import { CopyIconButton, ErrorAlert } from '../components/common.js';
import { DesktopSettings } from '../components/DesktopSettings.js';
import { KeysSection } from '../components/KeysSection.js';
import { LanguageSelect } from '../components/LanguageSelect.js';
import { ModelsSection } from '../components/ModelsSection.js';
import { useQuery } from '../lib/use-query.js';

/** The interface language: applies at once, stored with the other settings (or in the browser). */
function LanguageSection() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="language-title">
      <Stack gap="xs">
        <Title order={3} size="h4" id="language-title">
          {t('language.sectionTitle')}
        </Title>
        <LanguageSelect label={t('language.label')} w={320} />
        <Text size="sm" c="dimmed">
          {t('language.sectionText')}
        </Text>
      </Stack>
    </Paper>
  );
}

function DataSection() {
  const { t } = useTranslation();
  const { client } = useApi();
  const diag = useQuery(() => client.diagnostic({}), [client]);
  if (diag.error?.code === 'permission_denied') return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="data-title">
      <Stack gap="xs">
        <Title order={3} size="h4" id="data-title">
          {t('settings.dataTitle')}
        </Title>
        <ErrorAlert error={diag.error} title={t('settings.diagnosticError')} />
        {diag.data && (
          <Table withRowBorders={false} verticalSpacing={2} aria-label={t('settings.dataLabel')}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row" w={160}>
                  {t('settings.dataFolder')}
                </Table.Th>
                <Table.Td>
                  <Code data-testid="data-dir">{diag.data.data_dir}</Code>{' '}
                  <CopyIconButton value={diag.data.data_dir ?? ''} label={t('settings.copyDataFolder')} />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">{t('settings.store')}</Table.Th>
                <Table.Td>
                  <Code>{diag.data.store_path}</Code>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">{t('settings.versions')}</Table.Th>
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
        {diag.data && diag.data.warnings.length > 0 && (
          <Text size="sm" fw={500}>
            {t('settings.serverWarnings')}
          </Text>
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
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="chunk-title">
      <Stack gap="xs">
        <Title order={3} size="h4" id="chunk-title">
          {t('settings.chunkTitle')}
        </Title>
        <Text size="sm">
          <Trans i18nKey="settings.chunkText" values={{ defaults: chunkingSummary(DEFAULT_CHUNKING, t) }} components={{ code: <Code /> }} />
        </Text>
      </Stack>
    </Paper>
  );
}

export function SettingsScreen({ onThemeChange }: { onThemeChange: (t: AppSettings['theme']) => void }) {
  const { t } = useTranslation();
  const { desktop } = useApi();
  return (
    <Stack>
      <Title order={2}>{t('nav.settings')}</Title>
      <LanguageSection />
      <ModelsSection />
      {desktop ? <DesktopSettings desktop={desktop} onThemeChange={onThemeChange} /> : <WebChunkDefaults />}
      <KeysSection />
      <DataSection />
    </Stack>
  );
}

import { Code, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { DEFAULT_CHUNKING, type Diagnostic } from '../../shared/contract/index.js';
import type { AppSettings } from '../../shared/desktop.js';
import { useApi } from '../api/context.js';
import { chunkingSummary } from '../components/ChunkingFields.js';
import { CopyIconButton, ErrorAlert } from '../components/common.js';
import { DesktopSettings } from '../components/DesktopSettings.js';
import { KeysSection } from '../components/KeysSection.js';
import { LanguageSelect } from '../components/LanguageSelect.js';
import { modelStateLabel, ModelsSection } from '../components/ModelsSection.js';
import type { T } from '../i18n/index.js';
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

/** What the diagnostic's structured facts say is wrong, in the UI language (the server's own sentences are English). */
function diagnosticNotes(d: Diagnostic, t: T): string[] {
  const notes: string[] = [];
  for (const m of d.models) {
    if (m.state !== 'missing' && m.state !== 'error') continue;
    const state = modelStateLabel(m.state, t);
    notes.push(
      m.kind === 'embedding'
        ? t('settings.noteEmbeddingModel', { model: m.model, state })
        : t('settings.noteRerankModel', { model: m.model, state }),
    );
  }
  for (const kb of d.kbs) {
    if (kb.fts_index === 'stale') notes.push(t('settings.noteFtsStale', { kb: kb.name }));
    const mc = kb.migration;
    if (!mc || mc.state === 'done' || mc.state === 'cancelled') continue;
    const params = { kb: kb.name, to: mc.to_model, from: mc.from_model, done: mc.chunks_done, total: mc.chunks_total };
    notes.push(
      mc.state === 'failed' || mc.state === 'interrupted'
        ? t('settings.noteMigrationStopped', params)
        : t('settings.noteMigrationRunning', params),
    );
  }
  return notes;
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
                  <Text size="sm" translate="no">
                    {Object.entries(diag.data.versions)
                      .map(([k, v]) => `${k} ${v}`)
                      .join(' · ')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        )}
        {diag.data &&
          diagnosticNotes(diag.data, t).map((note) => (
            <Text key={note} size="sm" c="orange" data-testid="diagnostic-note">
              {note}
            </Text>
          ))}
        {diag.data && diag.data.warnings.length > 0 && (
          <details>
            <Text component="summary" size="xs" c="dimmed">
              {t('settings.serverWarnings')}
            </Text>
            <Stack gap={2} mt={4} translate="no">
              {diag.data.warnings.map((w) => (
                <Text key={w} size="xs" c="dimmed">
                  {w}
                </Text>
              ))}
            </Stack>
          </details>
        )}
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

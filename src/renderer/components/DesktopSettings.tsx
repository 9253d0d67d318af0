import { Alert, Button, Group, NumberInput, Paper, SegmentedControl, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppSettings, DesktopClient } from '../../shared/desktop.js';
import { ChunkingFields, chunkingValid } from './ChunkingFields.js';
import { ErrorAlert } from './common.js';

/** The desktop app's settings (electron-store): server, chunk defaults, model, tray and login behaviour, theme. */
export function DesktopSettings({ desktop, onThemeChange }: { desktop: DesktopClient; onThemeChange: (t: AppSettings['theme']) => void }) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<AppSettings | null>(null);
  const [saved, setSaved] = useState<AppSettings | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [restart, setRestart] = useState(false);

  useEffect(() => {
    desktop
      .getSettings({})
      .then((s) => {
        setSettings(s);
        setSaved(s);
      })
      .catch(setError);
  }, [desktop]);

  if (!settings) return <ErrorAlert error={error} title={t('desktop.readError')} />;
  const set = (patch: Partial<AppSettings>) => setSettings({ ...settings, ...patch });
  // The language has its own switch that saves at once (LanguageSelect): this form neither compares nor saves it.
  const withoutLanguage = ({ language: _language, ...rest }: AppSettings) => rest;
  const dirty = saved !== null && JSON.stringify(withoutLanguage(settings)) !== JSON.stringify(withoutLanguage(saved));

  async function save() {
    if (!settings) return;
    setBusy(true);
    setError(null);
    try {
      const next = await desktop.updateSettings(withoutLanguage(settings));
      setSettings(next);
      setSaved(next);
      onThemeChange(next.theme);
      const info = await desktop.appInfo({});
      setRestart(info.restart_needed);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="desktop-title">
      <Stack>
        <Title order={3} size="h4" id="desktop-title">
          {t('desktop.title')}
        </Title>
        <Group align="flex-end">
          <Switch
            label={t('desktop.server')}
            checked={settings.server.enabled}
            onChange={(e) => set({ server: { ...settings.server, enabled: e.currentTarget.checked } })}
          />
          <NumberInput
            label={t('desktop.port')}
            description={t('desktop.portHint')}
            min={0}
            max={65535}
            value={settings.server.port}
            onChange={(v) => typeof v === 'number' && set({ server: { ...settings.server, port: v } })}
            w={160}
          />
        </Group>
        <Switch
          label={t('desktop.closeToTray')}
          checked={settings.closeToTray}
          onChange={(e) => set({ closeToTray: e.currentTarget.checked })}
        />
        <Switch
          label={t('desktop.launchAtLogin')}
          checked={settings.launchAtLogin}
          onChange={(e) => set({ launchAtLogin: e.currentTarget.checked })}
        />
        <Switch
          label={t('desktop.startHidden')}
          checked={settings.startHidden}
          disabled={!settings.launchAtLogin}
          onChange={(e) => set({ startHidden: e.currentTarget.checked })}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="theme-label">
            {t('desktop.theme')}
          </Text>
          <SegmentedControl
            aria-labelledby="theme-label"
            value={settings.theme}
            onChange={(v) => set({ theme: v as AppSettings['theme'] })}
            data={[
              { value: 'system', label: t('desktop.themeSystem') },
              { value: 'light', label: t('desktop.themeLight') },
              { value: 'dark', label: t('desktop.themeDark') },
            ]}
          />
        </Stack>
        <TextInput
          label={t('desktop.model')}
          description={t('desktop.modelHint')}
          value={settings.embeddingModel}
          onChange={(e) => set({ embeddingModel: e.currentTarget.value })}
        />
        <Text fw={500} size="sm">
          {t('desktop.chunkingDefaults')}
        </Text>
        <ChunkingFields value={settings.chunking} onChange={(chunking) => set({ chunking })} idPrefix="settings" />
        <TextInput
          label={t('desktop.dataFolder')}
          description={t('desktop.dataFolderHint')}
          value={settings.dataDir}
          onChange={(e) => set({ dataDir: e.currentTarget.value })}
        />
        <ErrorAlert error={error} title={t('desktop.saveError')} />
        {restart && <Alert color="yellow">{t('desktop.restart')}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" disabled={!dirty} onClick={() => setSettings(saved)}>
            {t('desktop.undo')}
          </Button>
          <Button onClick={() => void save()} loading={busy} disabled={!dirty || !chunkingValid(settings.chunking)}>
            {t('desktop.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

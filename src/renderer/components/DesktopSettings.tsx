import { Alert, Button, Group, NumberInput, Paper, SegmentedControl, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { AppSettings, DesktopClient } from '../../shared/desktop.js';
import { ChunkingFields, chunkingValid } from './ChunkingFields.js';
import { ErrorAlert } from './common.js';

/** The desktop app's settings (electron-store): server, chunk defaults, model, tray and login behaviour, theme. */
export function DesktopSettings({ desktop, onThemeChange }: { desktop: DesktopClient; onThemeChange: (t: AppSettings['theme']) => void }) {
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

  if (!settings) return <ErrorAlert error={error} title="Could not read the settings" />;
  const set = (patch: Partial<AppSettings>) => setSettings({ ...settings, ...patch });
  const dirty = JSON.stringify(settings) !== JSON.stringify(saved);

  async function save() {
    if (!settings) return;
    setBusy(true);
    setError(null);
    try {
      const next = await desktop.updateSettings(settings);
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
          Desktop app
        </Title>
        <Group align="flex-end">
          <Switch
            label="Local server (MCP over HTTP, web console)"
            checked={settings.server.enabled}
            onChange={(e) => set({ server: { ...settings.server, enabled: e.currentTarget.checked } })}
          />
          <NumberInput
            label="Port"
            description="0: any free port"
            min={0}
            max={65535}
            value={settings.server.port}
            onChange={(v) => typeof v === 'number' && set({ server: { ...settings.server, port: v } })}
            w={160}
          />
        </Group>
        <Switch
          label="Keep running in the tray when the window is closed"
          checked={settings.closeToTray}
          onChange={(e) => set({ closeToTray: e.currentTarget.checked })}
        />
        <Switch
          label="Launch at login"
          checked={settings.launchAtLogin}
          onChange={(e) => set({ launchAtLogin: e.currentTarget.checked })}
        />
        <Switch
          label="Start hidden in the tray at login"
          checked={settings.startHidden}
          disabled={!settings.launchAtLogin}
          onChange={(e) => set({ startHidden: e.currentTarget.checked })}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="theme-label">
            Theme
          </Text>
          <SegmentedControl
            aria-labelledby="theme-label"
            value={settings.theme}
            onChange={(v) => set({ theme: v as AppSettings['theme'] })}
            data={[
              { value: 'system', label: 'Follow the system' },
              { value: 'light', label: 'Light' },
              { value: 'dark', label: 'Dark' },
            ]}
          />
        </Stack>
        <TextInput
          label="Embedding model for new knowledge bases"
          description="A preset name or a model folder"
          value={settings.embeddingModel}
          onChange={(e) => set({ embeddingModel: e.currentTarget.value })}
        />
        <Text fw={500} size="sm">
          Chunking defaults for new knowledge bases
        </Text>
        <ChunkingFields value={settings.chunking} onChange={(chunking) => set({ chunking })} idPrefix="settings" />
        <TextInput
          label="Data folder"
          description="Empty: the default folder. Takes effect after a restart."
          value={settings.dataDir}
          onChange={(e) => set({ dataDir: e.currentTarget.value })}
        />
        <ErrorAlert error={error} title="Could not save" />
        {restart && <Alert color="yellow">Restart ragdesk for the data folder or server changes to take effect.</Alert>}
        <Group justify="flex-end">
          <Button variant="default" disabled={!dirty} onClick={() => setSettings(saved)}>
            Undo changes
          </Button>
          <Button onClick={() => void save()} loading={busy} disabled={!dirty || !chunkingValid(settings.chunking)}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

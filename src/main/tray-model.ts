import type { UiLanguage } from '../shared/ui-language.js';
import { mainText } from './i18n/text.js';

/**
 * The tray menu as plain data, so it can be tested without Electron: `tray.ts` turns it into an Electron Menu
 * and maps each action to what it does. Its words follow the app's language setting (src/main/i18n).
 */
export type TrayAction = 'open' | 'copy-url' | 'copy-mcp-config' | 'toggle-pause' | 'quit';

export type TrayItem =
  | { kind: 'separator' }
  | { kind: 'label'; id: string; label: string }
  | { kind: 'action'; id: TrayAction; label: string; enabled: boolean; checked?: boolean };

export interface TrayState {
  version: string;
  windowVisible: boolean;
  server: { enabled: boolean; running: boolean; url: string | null; error: string | null };
  indexingPaused: boolean;
  /** Documents being ingested right now (0 when idle). */
  activeIngests?: number;
  /** The UI language (the setting resolved against the OS's languages); English when absent. */
  language?: UiLanguage;
}

export type TrayIcon = 'normal' | 'paused' | 'error';

export function serverStatusLabel(s: TrayState['server'], lang: UiLanguage = 'en'): string {
  if (s.running && s.url) return mainText(lang, 'trayServerRunning', { url: s.url });
  if (s.error) return mainText(lang, 'trayServerStopped', { error: s.error.length > 60 ? `${s.error.slice(0, 57)}…` : s.error });
  return mainText(lang, s.enabled ? 'trayServerStarting' : 'trayServerOff');
}

export function buildTrayMenu(state: TrayState): TrayItem[] {
  const lang = state.language ?? 'en';
  const items: TrayItem[] = [
    { kind: 'action', id: 'open', label: mainText(lang, state.windowVisible ? 'trayShow' : 'trayOpen'), enabled: true },
    { kind: 'separator' },
    { kind: 'label', id: 'server-status', label: serverStatusLabel(state.server, lang) },
    {
      kind: 'action',
      id: 'copy-url',
      label: mainText(lang, 'trayCopyUrl'),
      enabled: state.server.running && state.server.url !== null,
    },
    { kind: 'action', id: 'copy-mcp-config', label: mainText(lang, 'trayCopyMcpConfig'), enabled: true },
    { kind: 'separator' },
  ];
  if (state.activeIngests && state.activeIngests > 0 && !state.indexingPaused) {
    items.push({ kind: 'label', id: 'ingest-status', label: mainText(lang, 'trayIndexing', { count: state.activeIngests }) });
  }
  items.push(
    {
      kind: 'action',
      id: 'toggle-pause',
      label: mainText(lang, state.indexingPaused ? 'trayResumeIndexing' : 'trayPauseIndexing'),
      enabled: true,
      checked: state.indexingPaused,
    },
    { kind: 'separator' },
    { kind: 'action', id: 'quit', label: mainText(lang, 'trayQuit'), enabled: true },
  );
  return items;
}

export function trayTooltip(state: TrayState): string {
  const lang = state.language ?? 'en';
  const parts = [`ragdesk ${state.version}`, serverStatusLabel(state.server, lang)];
  if (state.indexingPaused) parts.push(mainText(lang, 'trayTooltipPaused'));
  return parts.join(' — ');
}

export function trayIcon(state: TrayState): TrayIcon {
  if (state.server.error) return 'error';
  return state.indexingPaused ? 'paused' : 'normal';
}

/**
 * The tray menu as plain data, so it can be tested without Electron: `tray.ts` turns it into an Electron Menu
 * and maps each action to what it does.
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
}

export type TrayIcon = 'normal' | 'paused' | 'error';

export function serverStatusLabel(s: TrayState['server']): string {
  if (s.running && s.url) return `Server running at ${s.url}`;
  if (s.error) return `Server stopped: ${s.error.length > 60 ? `${s.error.slice(0, 57)}…` : s.error}`;
  return s.enabled ? 'Server starting…' : 'Server off (turn it on in Settings)';
}

export function buildTrayMenu(state: TrayState): TrayItem[] {
  const items: TrayItem[] = [
    { kind: 'action', id: 'open', label: state.windowVisible ? 'Show ragdesk' : 'Open ragdesk', enabled: true },
    { kind: 'separator' },
    { kind: 'label', id: 'server-status', label: serverStatusLabel(state.server) },
    { kind: 'action', id: 'copy-url', label: 'Copy server URL', enabled: state.server.running && state.server.url !== null },
    { kind: 'action', id: 'copy-mcp-config', label: 'Copy MCP config (Claude Desktop)', enabled: true },
    { kind: 'separator' },
  ];
  if (state.activeIngests && state.activeIngests > 0 && !state.indexingPaused) {
    items.push({
      kind: 'label',
      id: 'ingest-status',
      label: `Indexing ${state.activeIngests} document${state.activeIngests === 1 ? '' : 's'}…`,
    });
  }
  items.push(
    {
      kind: 'action',
      id: 'toggle-pause',
      label: state.indexingPaused ? 'Resume indexing' : 'Pause indexing',
      enabled: true,
      checked: state.indexingPaused,
    },
    { kind: 'separator' },
    { kind: 'action', id: 'quit', label: 'Quit ragdesk', enabled: true },
  );
  return items;
}

export function trayTooltip(state: TrayState): string {
  const parts = [`ragdesk ${state.version}`, serverStatusLabel(state.server)];
  if (state.indexingPaused) parts.push('indexing paused');
  return parts.join(' — ');
}

export function trayIcon(state: TrayState): TrayIcon {
  if (state.server.error) return 'error';
  return state.indexingPaused ? 'paused' : 'normal';
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Quote one argument for a .desktop file's Exec line. */
function desktopQuote(arg: string): string {
  return /[\s"'\\$`]/.test(arg) ? `"${arg.replace(/(["\\$`])/g, '\\$1')}"` : arg;
}

/** An XDG autostart entry (Linux has no login-item API in Electron). */
export function linuxAutostartEntry(command: string, args: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=ragdesk',
    'Comment=Local knowledge bases for AI agents',
    `Exec=${[command, ...args].map(desktopQuote).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function linuxAutostartPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'autostart', 'ragdesk.desktop');
}

export interface LoginItemApi {
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[]; path?: string }): void;
}

/**
 * Launch at login, started with `--hidden` (the app then stays in the tray when "start hidden" is on):
 * Electron's login items on macOS and Windows, an XDG autostart file on Linux.
 */
export function applyLaunchAtLogin(
  app: LoginItemApi,
  enabled: boolean,
  launch: { command: string; args: string[] },
  platform: NodeJS.Platform = process.platform,
): void {
  if (platform === 'linux') {
    const file = linuxAutostartPath();
    if (enabled) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, linuxAutostartEntry(launch.command, [...launch.args, '--hidden']));
    } else {
      fs.rmSync(file, { force: true });
    }
    return;
  }
  app.setLoginItemSettings({ openAtLogin: enabled, path: launch.command, args: [...launch.args, '--hidden'] });
}

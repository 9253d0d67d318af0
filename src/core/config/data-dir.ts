import os from 'node:os';
import path from 'node:path';

/**
 * The data directory: `--data-dir`, else RAGDESK_DATA_DIR, else the OS app-data dir
 * (Linux: $XDG_CONFIG_HOME/ragdesk or ~/.config/ragdesk; macOS: ~/Library/Application Support/ragdesk;
 * Windows: %APPDATA%/ragdesk) — the same folder Electron's app.getPath('userData') gives for this app.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'ragdesk');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'ragdesk');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'ragdesk');
}

export function resolveDataDir(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? env.RAGDESK_DATA_DIR;
  return path.resolve(chosen && chosen.length > 0 ? chosen : defaultDataDir(env));
}

/** Where each part lives inside the data dir. */
export function dataPaths(dataDir: string) {
  return {
    root: dataDir,
    lance: path.join(dataDir, 'lance'),
    models: path.join(dataDir, 'models'),
    kbs: path.join(dataDir, 'kbs.json'),
    lock: path.join(dataDir, 'ragdesk.lock'),
    logs: path.join(dataDir, 'logs'),
    keys: path.join(dataDir, 'keys.json'),
    activity: path.join(dataDir, 'activity.jsonl'),
    settings: path.join(dataDir, 'settings.json'),
  };
}

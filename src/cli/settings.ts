import fs from 'node:fs';
import path from 'node:path';
import { readAppSettings, SETTINGS_NAME } from '../core/config/app-settings.js';
import { defaultDataDir, resolveDataDir } from '../core/config/data-dir.js';
import type { AppSettings } from '../shared/desktop.js';

/**
 * The desktop app's settings as the CLI uses them, read through `conf` from the same file: the data dir the app
 * uses, and the model and chunking new KBs get. Only read when the app has written the file (the CLI never creates it).
 */
export function cliSettings(env: NodeJS.ProcessEnv = process.env): AppSettings | undefined {
  const dir = defaultDataDir(env);
  if (!fs.existsSync(path.join(dir, `${SETTINGS_NAME}.json`))) return undefined;
  return readAppSettings({ cwd: dir });
}

/** `--data-dir`, else RAGDESK_DATA_DIR, else the data dir chosen in the app's settings, else the OS app-data dir. */
export function cliDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag || env.RAGDESK_DATA_DIR) return resolveDataDir(flag, env);
  return resolveDataDir(cliSettings(env)?.dataDir || undefined, env);
}

/** Defaults for new KBs from the app's settings, for every Core the CLI opens. */
export function cliCoreDefaults(): { defaultModel?: string; defaultChunking?: AppSettings['chunking'] } {
  const s = cliSettings();
  return s ? { defaultModel: s.embeddingModel, defaultChunking: s.chunking } : {};
}

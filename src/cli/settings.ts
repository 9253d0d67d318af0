import { defaultDataDir, resolveDataDir } from '../core/config/data-dir.js';
import { readSettingsFile } from '../core/config/settings-file.js';
import type { AppSettings } from '../shared/desktop.js';

/**
 * The desktop app's settings as the CLI uses them, from the same file and schema: the data dir the app uses, and
 * the model and chunking new KBs get. Only read when the app has written the file (the CLI never creates it).
 */
export function cliSettings(env: NodeJS.ProcessEnv = process.env): AppSettings | undefined {
  return readSettingsFile(defaultDataDir(env));
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

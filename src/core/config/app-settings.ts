import Conf from 'conf';
import { z } from 'zod';
import { AppSettingsSchema, DEFAULT_APP_SETTINGS, type AppSettings } from '../../shared/desktop.js';
import { defaultDataDir } from './data-dir.js';
import { SETTINGS_NAME } from './settings-file.js';

/**
 * The desktop app's settings file, `<OS app-data dir>/settings.json` (e.g. ~/.config/ragdesk/settings.json):
 * the Electron app writes it with electron-store; this opens it with `conf` (electron-store's base) and the same
 * schema, outside Electron. Read-only processes use settings-file.ts instead (conf hooks the process's signals).
 * It lives in the default app-data dir even when the data dir is moved, since the data dir is one of its settings.
 */
export { SETTINGS_NAME } from './settings-file.js';

/** `conf`/electron-store `schema` option: one JSON Schema (draft 2020-12, what conf's ajv speaks) per top-level key. */
export function appSettingsJsonSchema(): Record<string, Record<string, unknown>> {
  const schema = z.toJSONSchema(AppSettingsSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
  };
  return schema.properties ?? {};
}

export interface SettingsFileOptions {
  /** Folder of settings.json (default: the OS app-data dir). */
  cwd?: string;
  /** Reset a file that is not valid JSON or breaks the schema (default false: throw, leave the file alone). */
  clearInvalid?: boolean;
}

/** Open the settings file with `conf` (it writes the defaults when the file is missing). */
export function openAppSettings(options: SettingsFileOptions = {}): Conf<AppSettings> {
  return new Conf<AppSettings>({
    projectName: 'ragdesk',
    cwd: options.cwd ?? defaultDataDir(),
    configName: SETTINGS_NAME,
    schema: appSettingsJsonSchema() as never,
    defaults: DEFAULT_APP_SETTINGS,
    clearInvalidConfig: options.clearInvalid ?? false,
    projectSuffix: '',
  });
}

/** The settings as the CLI sees them: every key present, defaults for what the file lacks or gets wrong. */
export function readAppSettings(options: SettingsFileOptions = {}): AppSettings {
  let raw: unknown = {};
  try {
    raw = openAppSettings(options).store;
  } catch {
    raw = {};
  }
  const parsed = AppSettingsSchema.safeParse(raw);
  return parsed.success ? parsed.data : DEFAULT_APP_SETTINGS;
}

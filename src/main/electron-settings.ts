import Store from 'electron-store';
import { appSettingsJsonSchema, SETTINGS_NAME } from '../core/config/app-settings.js';
import { defaultDataDir } from '../core/config/data-dir.js';
import { DEFAULT_APP_SETTINGS, type AppSettings } from '../shared/desktop.js';
import { SettingsStore } from './settings-store.js';

/**
 * The settings file through electron-store: `<OS app-data dir>/settings.json`, the JSON Schema generated from
 * the shared zod schema, the same file and schema `ragdesk` reads through `conf`.
 */
export function openElectronSettings(cwd: string = defaultDataDir()): SettingsStore {
  const store = new Store<AppSettings>({
    name: SETTINGS_NAME,
    cwd,
    schema: appSettingsJsonSchema() as never,
    defaults: DEFAULT_APP_SETTINGS,
    // The app owns this file: a broken one is reset to the defaults rather than keeping the app from starting.
    clearInvalidConfig: true,
  });
  return new SettingsStore(store);
}

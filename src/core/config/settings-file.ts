import fs from 'node:fs';
import path from 'node:path';
import { AppSettingsSchema, DEFAULT_APP_SETTINGS, type AppSettings } from '../../shared/desktop.js';

/** The desktop app's settings file is `<OS app-data dir>/<SETTINGS_NAME>.json` (see app-settings.ts). */
export const SETTINGS_NAME = 'settings';

/**
 * Read the app's settings file with its schema, for processes that only read it (the CLI). It deliberately does
 * not go through `conf`: importing conf pulls in `when-exit`, which hooks SIGINT/SIGTERM and re-raises them, so a
 * `ragdesk serve` could no longer shut down gracefully. Returns undefined when the app has not written the file;
 * a key that breaks the schema falls back to its default.
 */
export function readSettingsFile(dir: string): AppSettings | undefined {
  const file = path.join(dir, `${SETTINGS_NAME}.json`);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return fs.existsSync(file) ? DEFAULT_APP_SETTINGS : undefined;
  }
  if (!raw || typeof raw !== 'object') return DEFAULT_APP_SETTINGS;
  const whole = AppSettingsSchema.safeParse(raw);
  if (whole.success) return whole.data;
  // Keep every valid key, default the rest.
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (AppSettingsSchema.safeParse({ [key]: value }).success) merged[key] = value;
  }
  return AppSettingsSchema.parse(merged);
}

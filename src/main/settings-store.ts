import type Conf from 'conf';
import { AppSettingsSchema, DEFAULT_APP_SETTINGS, type AppSettings, type AppSettingsPatch } from '../shared/desktop.js';

/**
 * The app's settings over a `conf` store (electron-store in the app: electron-settings.ts), validated with the
 * schema the CLI's reader uses too (src/core/config/app-settings.ts).
 */
export class SettingsStore {
  constructor(private readonly store: Conf<AppSettings>) {}

  get(): AppSettings {
    const parsed = AppSettingsSchema.safeParse(this.store.store);
    return parsed.success ? parsed.data : DEFAULT_APP_SETTINGS;
  }

  /** Merge a (validated) patch, check the whole, write it. */
  update(patch: AppSettingsPatch): AppSettings {
    const next = AppSettingsSchema.parse({ ...this.get(), ...patch });
    this.store.store = next;
    return next;
  }

  get path(): string {
    return this.store.path;
  }
}

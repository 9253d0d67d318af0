import { app } from 'electron';
import { resolveUiLanguage, type LanguageSetting, type UiLanguage } from '../../shared/ui-language.js';

/** The OS's preferred languages, most preferred first (e.g. ["ru-RU", "en-US"]), then Chromium's locale. */
export function systemLanguages(): string[] {
  const preferred = typeof app.getPreferredSystemLanguages === 'function' ? app.getPreferredSystemLanguages() : [];
  return [...preferred, app.getLocale()].filter((tag) => typeof tag === 'string' && tag.length > 0);
}

/** The language of the tray, the native dialogs and (through appInfo) the window for a language setting. */
export function appLanguage(setting: LanguageSetting | undefined): UiLanguage {
  return resolveUiLanguage(setting, systemLanguages());
}

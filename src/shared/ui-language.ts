/**
 * The languages of the user interface (desktop app, web console, tray, native dialogs) and how one is picked from
 * the OS's or the browser's preferred languages. Agent-facing text (MCP, CLI) stays English and does not use this.
 */
export const UI_LANGUAGES = ['en', 'ru', 'zh-CN'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/** The setting: `system` follows the OS (desktop) or the browser (web console); the others pin a language. */
export const LANGUAGE_SETTINGS = ['system', ...UI_LANGUAGES] as const;
export type LanguageSetting = (typeof LANGUAGE_SETTINGS)[number];

/** Each language's name in itself, for the language switch (never translated). */
export const LANGUAGE_NATIVE_NAMES: Record<UiLanguage, string> = { en: 'English', ru: 'Русский', 'zh-CN': '简体中文' };

export function isUiLanguage(value: unknown): value is UiLanguage {
  return typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);
}

export function isLanguageSetting(value: unknown): value is LanguageSetting {
  return typeof value === 'string' && (LANGUAGE_SETTINGS as readonly string[]).includes(value);
}

/**
 * The first of the preferred language tags (BCP 47 or POSIX, most preferred first) that the UI speaks:
 * `ru-RU` → ru, `zh-Hans-CN` / `zh` / `zh_CN.UTF-8` → zh-CN, `en-GB` → en. Traditional Chinese (zh-TW, zh-HK,
 * zh-Hant) has no catalogue of its own: it yields zh-CN only when no later preference matches exactly. Nothing
 * known: English.
 */
export function matchUiLanguage(tags: readonly string[]): UiLanguage {
  let traditional = false;
  for (const raw of tags) {
    const tag = raw
      .trim()
      .replace(/[.@].*$/, '')
      .replace(/_/g, '-')
      .toLowerCase();
    const [primary, ...rest] = tag.split('-');
    if (primary === 'en') return 'en';
    if (primary === 'ru') return 'ru';
    if (primary === 'zh') {
      if (rest.some((p) => p === 'hant' || p === 'tw' || p === 'hk' || p === 'mo')) traditional = true;
      else return 'zh-CN';
    }
  }
  return traditional ? 'zh-CN' : 'en';
}

/** The language the UI speaks for a setting, given the system's (or browser's) preferred languages. */
export function resolveUiLanguage(setting: LanguageSetting | undefined, preferred: readonly string[]): UiLanguage {
  return setting && setting !== 'system' ? setting : matchUiLanguage(preferred);
}

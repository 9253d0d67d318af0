import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { DesktopClient } from '../../shared/desktop.js';
import { isLanguageSetting, matchUiLanguage, resolveUiLanguage, type LanguageSetting, type UiLanguage } from '../../shared/ui-language.js';
import { initI18n } from './index.js';

/** The web console keeps the choice in localStorage (the desktop app in its settings file, through `updateSettings`). */
export const LANGUAGE_STORAGE_KEY = 'ragdesk.language';

export function loadWebLanguage(): LanguageSetting {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguageSetting(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

function saveWebLanguage(setting: LanguageSetting): void {
  try {
    if (setting === 'system') localStorage.removeItem(LANGUAGE_STORAGE_KEY);
    else localStorage.setItem(LANGUAGE_STORAGE_KEY, setting);
  } catch {
    // storage disabled: the choice lasts for this page
  }
}

/** The browser's (or, in Electron, Chromium's) preferred languages. */
function browserLanguages(): readonly string[] {
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

export interface LanguageState {
  /** What the person chose: a language, or `system` (the OS in the desktop app, the browser in the web console). */
  setting: LanguageSetting;
  /** The language the UI speaks now. */
  language: UiLanguage;
  /** The language `system` stands for here (the OS's in the desktop app, the browser's in the web console). */
  systemLanguage: UiLanguage;
  /** Switch at once, and store the choice. */
  setSetting: (setting: LanguageSetting) => Promise<void>;
}

const LanguageContext = createContext<LanguageState | null>(null);

export function useLanguage(): LanguageState {
  const value = useContext(LanguageContext);
  if (!value) throw new Error('useLanguage outside LanguageProvider');
  return value;
}

/**
 * The UI language for everything below it. In the browser: the stored choice, else `navigator.languages`. In the
 * desktop app: the `language` setting, resolved against the OS's preferred languages that main reports (appInfo);
 * until they arrive, Chromium's languages (which follow the OS) stand in.
 */
export function LanguageProvider({ desktop, children }: { desktop: DesktopClient | undefined; children: ReactNode }) {
  const [setting, setSettingState] = useState<LanguageSetting>(() => (desktop ? 'system' : loadWebLanguage()));
  const [system, setSystem] = useState<readonly string[]>(browserLanguages);
  const language = resolveUiLanguage(setting, system);
  const [i18n] = useState(() => initI18n(language));

  useEffect(() => {
    if (!desktop) return;
    let stale = false;
    void Promise.all([desktop.getSettings({}), desktop.appInfo({})])
      .then(([settings, info]) => {
        if (stale) return;
        setSettingState(settings.language);
        if (info.system_languages?.length) setSystem(info.system_languages);
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [desktop]);

  useEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
    document.documentElement.lang = language;
  }, [i18n, language]);

  const setSetting = useCallback(
    async (next: LanguageSetting) => {
      const before = setting;
      setSettingState(next);
      if (!desktop) return saveWebLanguage(next);
      try {
        await desktop.updateSettings({ language: next });
      } catch (err) {
        setSettingState(before);
        throw err;
      }
    },
    [desktop, setting],
  );

  const systemLanguage = matchUiLanguage(system);
  const value = useMemo(() => ({ setting, language, systemLanguage, setSetting }), [setting, language, systemLanguage, setSetting]);
  return (
    <I18nextProvider i18n={i18n}>
      <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>
    </I18nextProvider>
  );
}

/**
 * The UI's words: one i18next instance over three catalogues (en.ts, ru.ts, zh-CN.ts), used through react-i18next's
 * `useTranslation()` (`t('screen.key', params)`) and `<Trans>` for sentences with markup.
 *
 * Adding a string: put the key in en.ts (under the screen or component it belongs to), then the same key in ru.ts
 * and zh-CN.ts. Counts use plural keys (`key_one`/`key_other`; Russian `_one`/`_few`/`_many`/`_other`; Chinese
 * `_other` only) and are called as `t('key', { count })`. Write keys literally in the code (no `t(\`x.${y}\`)`: map
 * values to literal keys instead), so catalogues.test.ts can see them; it fails on a key missing from any catalogue,
 * on a key no code uses, and on missing plural forms. Dates, numbers and sizes: format.ts (Intl).
 */
import i18next, { type TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { UI_LANGUAGES, type UiLanguage } from '../../shared/ui-language.js';
import { en } from './en.js';
import { ru } from './ru.js';
import { zhCN } from './zh-CN.js';

export const CATALOGUES = { en, ru, 'zh-CN': zhCN } as const;

export type T = TFunction;

export const i18n = i18next.createInstance();

/** Start i18next in `language` (synchronously: the catalogues are bundled). */
export function initI18n(language: UiLanguage): typeof i18n {
  if (i18n.isInitialized) {
    void i18n.changeLanguage(language);
    return i18n;
  }
  void i18n.use(initReactI18next).init({
    resources: Object.fromEntries(Object.entries(CATALOGUES).map(([lang, translation]) => [lang, { translation }])),
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...UI_LANGUAGES],
    load: 'currentOnly',
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false },
  });
  return i18n;
}

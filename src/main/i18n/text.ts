import type { UiLanguage } from '../../shared/ui-language.js';
import { MAIN_CATALOGUES, type MainCatalogue, type PluralForms } from './catalogues.js';

export type MainKey = keyof MainCatalogue;

/**
 * A main-process message in `lang`, its `{name}` parameters filled in. A plural message picks its form by
 * `params.count` with Intl.PluralRules; numbers are written with Intl in the same language.
 */
export function mainText(lang: UiLanguage, key: MainKey, params: Record<string, string | number> = {}): string {
  const entry: string | PluralForms = MAIN_CATALOGUES[lang][key];
  let template: string;
  if (typeof entry === 'string') template = entry;
  else {
    const count = typeof params.count === 'number' ? params.count : 0;
    template = entry[new Intl.PluralRules(lang).select(count)] ?? entry.other;
  }
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? new Intl.NumberFormat(lang).format(value) : value;
  });
}

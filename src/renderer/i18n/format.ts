import { useTranslation } from 'react-i18next';
import { isUiLanguage, type UiLanguage } from '../../shared/ui-language.js';

/** Numbers, dates, sizes and durations written the way the UI language writes them (Intl, never by hand). */
export interface Formatters {
  language: UiLanguage;
  number(n: number): string;
  /** A number with exactly `digits` decimals (scores). */
  decimal(n: number, digits: number): string;
  /** Date and time, or an em dash when there is none. */
  date(iso: string | null | undefined): string;
  time(iso: string): string;
  /** File sizes, one style for every unit: 512B, 1.5kB, 12.3MB in English (1 kB = 1024 B, as file managers count). */
  bytes(n: number): string;
  milliseconds(ms: number): string;
  /** A rough duration for "time left": seconds under two minutes, minutes above. */
  duration(ms: number): string;
  percent(fraction: number): string;
  list(items: readonly string[]): string;
}

const cache = new Map<UiLanguage, Formatters>();

function unit(language: UiLanguage, name: string, display: 'short' | 'long' | 'narrow', digits = 0) {
  return new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: display, maximumFractionDigits: digits });
}

export function formatters(language: UiLanguage): Formatters {
  const known = cache.get(language);
  if (known) return known;
  const number = new Intl.NumberFormat(language);
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const timeOnly = new Intl.DateTimeFormat(language, { timeStyle: 'medium' });
  const byte = unit(language, 'byte', 'narrow');
  const kilobyte = unit(language, 'kilobyte', 'narrow', 1);
  const megabyte = unit(language, 'megabyte', 'narrow', 1);
  const gigabyte = unit(language, 'gigabyte', 'narrow', 1);
  const ms = unit(language, 'millisecond', 'short');
  const seconds = unit(language, 'second', 'long');
  const minutes = unit(language, 'minute', 'long');
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
  const list = new Intl.ListFormat(language, { type: 'conjunction', style: 'long' });
  const f: Formatters = {
    language,
    number: (n) => number.format(n),
    decimal: (n, digits) => new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n),
    date: (iso) => {
      if (!iso) return '—';
      const d = new Date(iso);
      return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
    },
    time: (iso) => {
      const d = new Date(iso);
      return Number.isNaN(d.getTime()) ? iso : timeOnly.format(d);
    },
    bytes: (n) => {
      if (n < 1024) return byte.format(n);
      if (n < 1024 ** 2) return kilobyte.format(n / 1024);
      if (n < 1024 ** 3) return megabyte.format(n / 1024 ** 2);
      return gigabyte.format(n / 1024 ** 3);
    },
    milliseconds: (n) => ms.format(Math.round(n)),
    duration: (n) => {
      const s = Math.max(1, Math.round(n / 1000));
      return s >= 120 ? minutes.format(Math.round(s / 60)) : seconds.format(s);
    },
    percent: (fraction) => percent.format(fraction),
    list: (items) => list.format(items),
  };
  cache.set(language, f);
  return f;
}

/** The formatters of the language the UI speaks now (re-renders when it changes). */
export function useFormat(): Formatters {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return formatters(isUiLanguage(lang) ? lang : 'en');
}

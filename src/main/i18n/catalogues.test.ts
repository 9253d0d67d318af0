import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UI_LANGUAGES } from '../../shared/ui-language.js';
import { MAIN_CATALOGUES } from './catalogues.js';
import { mainText } from './text.js';

const MAIN = path.resolve(import.meta.dirname, '..');

/** The main process's code (not tests, not the catalogues themselves). */
function mainSources(dir = MAIN): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return mainSources(p);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && !p.endsWith(path.join('i18n', 'catalogues.ts')) ? [p] : [];
  });
}

describe('main-process catalogues', () => {
  it('give every plural message the forms its language needs, and the same parameters in every language', () => {
    for (const lang of UI_LANGUAGES) {
      const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      for (const [key, entry] of Object.entries(MAIN_CATALOGUES[lang])) {
        const english = (MAIN_CATALOGUES.en as unknown as Record<string, string | Record<string, string>>)[key]!;
        const params = (v: string | Record<string, string>) =>
          [...new Set([...(typeof v === 'string' ? v : Object.values(v).join(' ')).matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
        expect(params(entry), `${lang} ${key}`).toEqual(params(english));
        if (typeof entry === 'string') continue;
        expect(Object.keys(entry).sort(), `${lang} ${key}`).toEqual([...categories].sort());
      }
    }
  });

  it('have no message the main process does not use', () => {
    const code = mainSources()
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    const unused = Object.keys(MAIN_CATALOGUES.en).filter((key) => !code.includes(`'${key}'`));
    expect(unused).toEqual([]);
  });

  it('fill in parameters and write numbers in the language', () => {
    expect(mainText('en', 'trayIndexing', { count: 1 })).toBe('Indexing 1 document…');
    expect(mainText('ru', 'trayIndexing', { count: 22 })).toBe('Индексируются 22 документа…');
    expect(mainText('ru', 'trayIndexing', { count: 11 })).toBe('Индексируются 11 документов…');
    expect(mainText('ru', 'trayIndexing', { count: 2500 })).toBe('Индексируются 2\u00a0500 документов…');
    expect(mainText('zh-CN', 'trayServerRunning', { url: 'http://127.0.0.1:7300' })).toBe('服务器运行中：http://127.0.0.1:7300');
  });
});

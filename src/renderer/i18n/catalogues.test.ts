/// <reference types="vite/client" />
import i18next from 'i18next';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { UI_LANGUAGES, type UiLanguage } from '../../shared/ui-language.js';
import { CATALOGUES } from './index.js';

/**
 * The catalogues against the code: every key the renderer uses exists in all three languages, no catalogue has a
 * key the code does not use, plural keys have exactly the forms their language needs, and a translation keeps the
 * English string's parameters and markup. Keys are found as string literals in the renderer's code (index.ts asks
 * for literal keys), read with the TypeScript parser.
 */
/** The renderer's code as text (Vite's glob import: the renderer layer reads no files through Node). */
const SOURCES = import.meta.glob(
  ['../**/*.ts', '../**/*.tsx', '!../**/*.test.ts', '!../**/*.test.tsx', '!../**/*.d.ts', '!./en.ts', '!./ru.ts', '!./zh-CN.ts'],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
) as Record<string, string>;
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function flatten(obj: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v as object, key)) out.set(kk, vv);
  }
  return out;
}

const FLAT = Object.fromEntries(UI_LANGUAGES.map((lang) => [lang, flatten(CATALOGUES[lang])])) as Record<UiLanguage, Map<string, string>>;

/** Keys as the code writes them (plural suffixes removed), each with its forms: key → {suffix or '' → text}. */
function grouped(lang: UiLanguage): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, value] of FLAT[lang]) {
    const m = PLURAL_SUFFIX.exec(key);
    const base = m ? key.slice(0, m.index) : key;
    const forms = out.get(base) ?? new Map<string, string>();
    forms.set(m?.[1] ?? '', value);
    out.set(base, forms);
  }
  return out;
}

const GROUPED = Object.fromEntries(UI_LANGUAGES.map((lang) => [lang, grouped(lang)])) as Record<
  UiLanguage,
  Map<string, Map<string, string>>
>;
const NAMESPACES = new Set(Object.keys(CATALOGUES.en));

/** String literals in the code that name a catalogue key (`namespace.key`), and `t()` calls with a computed key. */
function scan(): { used: Map<string, string[]>; dynamic: string[] } {
  const used = new Map<string, string[]>();
  const dynamic: string[] = [];
  for (const [file, text] of Object.entries(SOURCES)) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const where = (node: ts.Node) => `${file.replace(/^\.\.\//, '')}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        const value = node.text;
        if (/^[A-Za-z]+\.[A-Za-z0-9_]+$/.test(value) && NAMESPACES.has(value.split('.')[0]!))
          used.set(value, [...(used.get(value) ?? []), where(node)]);
      }
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't') {
        const first = node.arguments[0];
        if (first && ts.isTemplateExpression(first)) dynamic.push(where(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { used, dynamic };
}

const { used, dynamic } = scan();

/** `{{name}}` parameters (a format after the comma ignored) and `<tag>`s of a string. */
const params = (s: string) => [...new Set([...s.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((m) => m[1]!))].sort();
const tags = (s: string) => [...new Set([...s.matchAll(/<\/?(\w+)>/g)].map((m) => m[1]!))].sort();

describe('UI catalogues (en, ru, zh-CN)', () => {
  it('has every key the code uses, in every language', () => {
    expect(Object.keys(SOURCES)).toContain('../App.tsx');
    expect(used.size).toBeGreaterThan(300);
    for (const lang of UI_LANGUAGES) {
      const missing = [...used].filter(([key]) => !GROUPED[lang].has(key)).map(([key, at]) => `${key} (${at[0]})`);
      expect(missing, `missing in ${lang}`).toEqual([]);
    }
  });

  it('has no key the code does not use', () => {
    for (const lang of UI_LANGUAGES) {
      const unused = [...GROUPED[lang].keys()].filter((key) => !used.has(key));
      expect(unused, `unused in ${lang}`).toEqual([]);
    }
  });

  it('writes keys literally (no t(`x.${y}`), which this test could not see)', () => {
    expect(dynamic).toEqual([]);
  });

  it('gives every plural key exactly the forms its language has (Russian: one, few, many, other)', () => {
    const pluralKeys = [...GROUPED.en].filter(([, forms]) => !forms.has('')).map(([key]) => key);
    expect(pluralKeys.length).toBeGreaterThan(5);
    for (const lang of UI_LANGUAGES) {
      const categories = [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();
      for (const [key, forms] of GROUPED[lang]) {
        const isPlural = pluralKeys.includes(key);
        expect([...forms.keys()].sort(), `${lang} ${key}`).toEqual(isPlural ? categories : ['']);
      }
    }
    expect(new Intl.PluralRules('ru').resolvedOptions().pluralCategories).toEqual(expect.arrayContaining(['one', 'few', 'many']));
  });

  it('keeps the English parameters and markup in every translation', () => {
    for (const lang of UI_LANGUAGES) {
      for (const [key, forms] of GROUPED[lang]) {
        const english = [...GROUPED.en.get(key)!.values()].join(' ');
        for (const [form, text] of forms) {
          // A form for one item may write "1" (or "один") instead of {{count}}.
          const expected = params(english).filter((p) => p !== 'count' || params(text).includes('count'));
          expect(params(text), `${lang} ${key}${form ? `_${form}` : ''}: parameters`).toEqual(expected);
          expect(tags(text), `${lang} ${key}${form ? `_${form}` : ''}: markup`).toEqual(tags(english));
        }
      }
    }
  });

  it('really translates: Russian strings are in Cyrillic, Chinese ones in Chinese characters', () => {
    // Strings that are the same in every language: names, paths, symbols, examples of what to type.
    const same = new Set([
      'common.listSeparator',
      'keys.namePlaceholder',
      'sources.excludePlaceholder',
      'filters.listPlaceholder',
      'chunk.lines',
      'kbForm.id',
      'models.dims',
      'sources.progress',
      'search.summary',
      'doc.id',
      'health.confidence',
      'health.statusOption',
      'health.statusCount',
    ]);
    const script = { ru: /\p{Script=Cyrillic}/u, 'zh-CN': /\p{Script=Han}/u } as const;
    for (const lang of ['ru', 'zh-CN'] as const) {
      const untranslated = [...FLAT[lang]]
        .filter(([key, text]) => !same.has(key.replace(PLURAL_SUFFIX, '')) && !script[lang].test(text))
        .map(([key, text]) => `${key}: ${text}`);
      expect(untranslated, lang).toEqual([]);
    }
  });

  it('counts in Russian with its three forms and in Chinese with one, numbers written the local way', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'ru',
      resources: Object.fromEntries(UI_LANGUAGES.map((l) => [l, { translation: CATALOGUES[l] }])),
      interpolation: { escapeValue: false },
    });
    const ru = i18n.getFixedT('ru');
    const zh = i18n.getFixedT('zh-CN');
    const en = i18n.getFixedT('en');
    expect([1, 3, 5, 11, 21, 22, 25].map((count) => ru('counts.documents', { count }))).toEqual([
      '1 документ',
      '3 документа',
      '5 документов',
      '11 документов',
      '21 документ',
      '22 документа',
      '25 документов',
    ]);
    expect(ru('ingest.addFiles', { count: 2 })).toBe('Добавить 2 файла');
    expect(ru('counts.chunks', { count: 1500 }).replace(/\s/g, ' ')).toBe('1 500 фрагментов');
    expect(zh('counts.documents', { count: 5 })).toBe('5 个文档');
    expect(zh('counts.chunks', { count: 1500 })).toBe('1,500 个分块');
    expect([1, 2].map((count) => en('counts.documents', { count }))).toEqual(['1 document', '2 documents']);
  });
});

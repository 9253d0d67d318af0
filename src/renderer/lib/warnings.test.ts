import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en.js';
import { ru } from '../i18n/ru.js';
import { describeWarning } from './warnings.js';

const t = await (async () => {
  const i = i18next.createInstance();
  await i.init({ lng: 'ru', resources: { en: { translation: en }, ru: { translation: ru } }, interpolation: { escapeValue: false } });
  return i.t.bind(i);
})();

describe('parser warnings in the UI language', () => {
  it('names known warning codes, keeps details as parameters, and shows unknown warnings as they came', () => {
    expect(describeWarning('no_text_layer', t)).toBe(ru.preview.warnNoTextLayer);
    expect(describeWarning('pages_unreadable: 3, 7', t)).toBe(ru.preview.warnPagesUnreadable.replace('{{pages}}', '3, 7'));
    expect(describeWarning('docx_warning: odd numbering', t)).toContain('odd numbering');
    expect(describeWarning('something new', t)).toBe('something new');
  });
});

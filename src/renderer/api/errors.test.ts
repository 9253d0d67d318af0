import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { RagError } from '../../shared/errors.js';
import { formatters } from '../i18n/format.js';
import { CATALOGUES } from '../i18n/index.js';
import { errorFromEnvelope, localizeError } from './errors.js';

const i18n = i18next.createInstance();
await i18n.init({
  lng: 'en',
  resources: Object.fromEntries(Object.entries(CATALOGUES).map(([lang, translation]) => [lang, { translation }])),
  interpolation: { escapeValue: false },
});
const ru = i18n.getFixedT('ru');
const zh = i18n.getFixedT('zh-CN');
const en = i18n.getFixedT('en');

describe('errors by stable code, in the UI language', () => {
  it('says what happened in the language, with the server’s facts as parameters and its message kept as the detail', () => {
    const tooLarge = errorFromEnvelope({
      code: 'too_large',
      message: 'big.pdf is 73400320 bytes; the limit is 52428800',
      details: { file: '/home/u/big.pdf', bytes: 73_400_320, limit: 52_428_800 },
    });
    const e = localizeError(tooLarge, ru, formatters('ru'));
    expect(e.code).toBe('too_large');
    expect(e.text.replace(/\s/g, ' ')).toBe('«big.pdf» слишком велик: 70 МБ при ограничении 50 МБ.');
    expect(e.detail).toBe('big.pdf is 73400320 bytes; the limit is 52428800');
    expect(localizeError(tooLarge, zh, formatters('zh-CN')).text.replace(/\s/g, '')).toBe('“big.pdf”太大：70MB，上限为50MB。');
  });

  it('fills in what the server left out from what the UI knows (the file being added)', () => {
    const err = new RagError('parse_failed', 'Could not parse: Invalid PDF structure');
    expect(localizeError(err, en, formatters('en'), { file: 'scans/corrupt.pdf' }).text).toBe(
      '“corrupt.pdf” could not be read: it may be damaged, or not what its extension says.',
    );
    const encrypted = new RagError('parse_failed', 'encrypted', { details: { reason: 'encrypted', file: 'a.pdf' } });
    expect(localizeError(encrypted, zh, formatters('zh-CN')).text).toBe('“a.pdf”受密码保护：请另存一份无密码的副本再添加。');
  });

  it('has a sentence for every stable code, and unknown codes or thrown values read as internal', () => {
    for (const code of ['permission_denied', 'kb_not_found', 'busy', 'model_unavailable', 'invalid_parameter'] as const)
      expect(localizeError(new RagError(code, 'x'), ru, formatters('ru')).text).toMatch(/[А-Яа-я]/);
    expect(localizeError(new Error('boom'), en, formatters('en'))).toEqual({
      code: 'internal',
      text: 'Something went wrong inside ragdesk.',
      detail: 'boom',
    });
    expect(localizeError(new RagError('kb_not_found', 'no', { details: { kb_id: 'docs' } }), en, formatters('en')).text).toBe(
      'There is no knowledge base “docs”.',
    );
  });

  it('says the server cannot be reached when the transport got no answer', () => {
    const down = new RagError('internal', 'cannot reach the ragdesk server: fetch failed');
    expect(localizeError(down, ru, formatters('ru')).text).toBe('Нет связи с ragdesk: сервер (или приложение) ещё работает?');
  });
});

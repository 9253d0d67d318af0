import { describe, expect, it } from 'vitest';
import { AppSettingsPatchSchema, AppSettingsSchema } from './desktop.js';
import { matchUiLanguage, resolveUiLanguage } from './ui-language.js';

describe('UI language', () => {
  it('takes the first preferred language the UI speaks', () => {
    expect(matchUiLanguage(['ru-RU', 'en-US'])).toBe('ru');
    expect(matchUiLanguage(['de-DE', 'zh-Hans-CN', 'en'])).toBe('zh-CN');
    expect(matchUiLanguage(['zh'])).toBe('zh-CN');
    expect(matchUiLanguage(['zh_CN.UTF-8'])).toBe('zh-CN');
    expect(matchUiLanguage(['ru_RU.UTF-8@euro'])).toBe('ru');
    expect(matchUiLanguage(['en-GB', 'ru'])).toBe('en');
    expect(matchUiLanguage(['fr-FR', 'de'])).toBe('en');
    expect(matchUiLanguage([])).toBe('en');
  });

  it('uses Simplified Chinese for Traditional only when nothing later matches exactly', () => {
    expect(matchUiLanguage(['zh-TW'])).toBe('zh-CN');
    expect(matchUiLanguage(['zh-Hant-HK', 'en-US'])).toBe('en');
    expect(matchUiLanguage(['zh-TW', 'ru'])).toBe('ru');
  });

  it('follows the system unless the setting pins a language', () => {
    expect(resolveUiLanguage('system', ['ru-RU'])).toBe('ru');
    expect(resolveUiLanguage(undefined, ['zh-CN'])).toBe('zh-CN');
    expect(resolveUiLanguage('en', ['ru-RU'])).toBe('en');
    expect(resolveUiLanguage('zh-CN', ['en-US'])).toBe('zh-CN');
  });

  it('is a setting of the app with "system" as the default, and only known languages are accepted', () => {
    expect(AppSettingsSchema.parse({}).language).toBe('system');
    expect(AppSettingsPatchSchema.parse({ language: 'ru' })).toEqual({ language: 'ru' });
    expect(AppSettingsPatchSchema.safeParse({ language: 'de' }).success).toBe(false);
  });
});

import { Select, type SelectProps } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NATIVE_NAMES, LANGUAGE_SETTINGS, type LanguageSetting } from '../../shared/ui-language.js';
import { useOptionalApi } from '../api/context.js';
import { useLanguage } from '../i18n/language.js';
import { ErrorAlert } from './common.js';

/**
 * The language switch: each language by its own name, or "same as the system/browser". Applies at once and is
 * stored (the desktop app's settings file, or the browser's localStorage).
 */
export function LanguageSelect(props: Omit<SelectProps, 'data' | 'value' | 'onChange'>) {
  const { t } = useTranslation();
  const { setting, systemLanguage, setSetting } = useLanguage();
  const [error, setError] = useState<unknown>(null);
  // The sign-in page has no API context: that is the web console.
  const desktop = Boolean(useOptionalApi()?.desktop);
  const followed = LANGUAGE_NATIVE_NAMES[systemLanguage];
  const data = LANGUAGE_SETTINGS.map((s) => ({
    value: s,
    label:
      s === 'system'
        ? desktop
          ? t('language.system', { language: followed })
          : t('language.browser', { language: followed })
        : LANGUAGE_NATIVE_NAMES[s],
  }));
  return (
    <>
      <Select
        aria-label={t('language.label')}
        {...props}
        data={data}
        value={setting}
        allowDeselect={false}
        data-testid="language-select"
        onChange={(v) => {
          if (!v) return;
          setError(null);
          setSetting(v as LanguageSetting).catch(setError);
        }}
      />
      <ErrorAlert error={error} title={t('language.saveError')} />
    </>
  );
}

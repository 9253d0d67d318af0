import type { T } from '../i18n/index.js';

/**
 * A parser or ingest warning in the UI language. The server's warnings are codes (`no_text_layer`), codes with a
 * detail (`pages_unreadable: 3, 7`, `docx_warning: …`) or English sentences; unknown ones are shown as they came.
 */
export function describeWarning(warning: string, t: T): string {
  const [code = '', ...rest] = warning.split(':');
  const detail = rest.join(':').trim();
  switch (code.trim()) {
    case 'empty_text':
      return t('preview.warnEmpty');
    case 'no_text_layer':
      return t('preview.warnNoTextLayer');
    case 'markdown_inline_literal':
      return t('preview.warnInlineLiteral');
    case 'markdown_read_as_plain_text':
      return t('preview.warnPlainText');
    case 'pages_unreadable':
      return t('preview.warnPagesUnreadable', { pages: detail });
  }
  if (code.startsWith('docx_')) return t('preview.warnDocx', { message: detail });
  if (warning.startsWith('stored without vectors')) return t('preview.warnNoVectors');
  return warning;
}

import 'i18next';
import type { en } from './en.js';

/** Typed keys: `t('no.such.key')` fails the typecheck (the English catalogue is the reference). */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    returnNull: false;
  }
}

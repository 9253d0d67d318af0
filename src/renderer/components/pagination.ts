import { useTranslation } from 'react-i18next';

/** Mantine Pagination's controls and pages named in the UI language (screen readers). */
export function usePaginationLabels() {
  const { t } = useTranslation();
  const controls = {
    first: t('common.pageFirst'),
    previous: t('common.pagePrevious'),
    next: t('common.pageNext'),
    last: t('common.pageLast'),
  };
  return {
    getControlProps: (control: keyof typeof controls) => ({ 'aria-label': controls[control] }),
    getItemProps: (page: number) => ({ 'aria-label': t('common.pageNumber', { page }) }),
  };
}

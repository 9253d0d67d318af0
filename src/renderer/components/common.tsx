import { ActionIcon, Alert, Button, Code, CopyButton, EmptyState, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localizeError, type ErrorContext } from '../api/errors.js';
import { useFormat } from '../i18n/format.js';
import { IconCheck, IconCopy } from './icons.js';

/** What to do next when a list is empty. */
export function EmptyHint({
  title,
  children,
  icon,
  action,
}: {
  title: string;
  children?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <EmptyState title={title} description={children} icon={icon} withIndicatorBackground py="xl" role="status">
      {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
    </EmptyState>
  );
}

/** The localised sentence for an error's code, then its stable code and the server's own message, smaller. */
export function ErrorText({ error, context }: { error: unknown; context?: ErrorContext }) {
  const { t } = useTranslation();
  const f = useFormat();
  const e = localizeError(error, t, f, context);
  return (
    <>
      <Text size="sm" component="span" display="block" data-testid="error-text">
        {e.text}
      </Text>
      <Text
        size="xs"
        c="dimmed"
        component="span"
        display="block"
        mt={2}
        title={t('common.serverSaid')}
        data-testid="error-detail"
        translate="no"
      >
        <Code>{e.code}</Code> {e.detail}
      </Text>
    </>
  );
}

/** An error: what happened (title), why in the UI language, and its stable code with the server's message. */
export function ErrorAlert({ error, title, context }: { error: unknown; title?: string; context?: ErrorContext }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Alert color="red" title={title ?? t('common.somethingWentWrong')} role="alert">
      <ErrorText error={error} {...(context ? { context } : {})} />
    </Alert>
  );
}

export function CopyIconButton({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('common.copied') : label} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={label}>
            {copied ? <IconCheck /> : <IconCopy />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** A block of text to copy (configs, keys). */
export function CopyBlock({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Group justify="flex-end" gap="xs">
        <CopyButton value={value} timeout={1500}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant="light"
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              onClick={copy}
              aria-label={label}
            >
              {copied ? t('common.copied') : t('common.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="copy-value">
        {value}
      </Code>
    </Stack>
  );
}

/** Ask before something that cannot be undone; shows the error if the action fails. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      <Stack>
        <Text size="sm" component="div">
          {children}
        </Text>
        <ErrorAlert error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('common.cancel')}
          </Button>
          <Button color="red" onClick={confirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

import { Autocomplete, Button, Group, Modal, Stack, TagsInput, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_CHUNKING, FULL_TEXT_ONLY, type ChunkingConfig, type Kb } from '../../shared/contract/index.js';
import { useApi } from '../api/context.js';
import { useQuery } from '../lib/use-query.js';
import { ChunkingFields, chunkingValid } from './ChunkingFields.js';
import { ErrorAlert } from './common.js';
import { ModelChangeProgress } from './ModelChangeProgress.js';

/** A KB id from a name: lower case, safe characters, at most 64. */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 64);
  return slug || '';
}

const KB_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** The preset a KB gets when the model field is left empty (a name, not a word to translate). */
const DEFAULT_MODEL_PRESET = 'multilingual';

/** Create a KB, or edit one (`kb` given): name, description, department, model, languages, chunking defaults. */
export function KbForm({ opened, kb, onClose, onSaved }: { opened: boolean; kb?: Kb; onClose: () => void; onSaved: (kb: Kb) => void }) {
  const { t } = useTranslation();
  const { client, desktop } = useApi();
  const presets = useQuery(() => client.listModelPresets({}), [client], { enabled: opened });
  const [name, setName] = useState('');
  const [kbId, setKbId] = useState('');
  const [idTouched, setIdTouched] = useState(false);
  const [description, setDescription] = useState('');
  const [department, setDepartment] = useState('');
  const [model, setModel] = useState('');
  const [languages, setLanguages] = useState<string[]>([]);
  const [chunking, setChunking] = useState<ChunkingConfig>(DEFAULT_CHUNKING);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  /** When a model change was started from this dialog (its progress stays shown, and its outcome). */
  const [changedAt, setChangedAt] = useState<string>();

  useEffect(() => {
    if (opened) setChangedAt(undefined);
  }, [opened]);

  useEffect(() => {
    if (!opened) return;
    setError(null);
    setName(kb?.name ?? '');
    setKbId(kb?.kb_id ?? '');
    setIdTouched(false);
    setDescription(kb?.description ?? '');
    setDepartment(kb?.department ?? '');
    setModel(kb?.embedding_model ?? '');
    setLanguages(kb?.languages ?? []);
    setChunking(kb?.chunking ?? DEFAULT_CHUNKING);
    // New KBs in the desktop app start from the chunking and model defaults in Settings.
    if (!kb && desktop) {
      desktop
        .getSettings({})
        .then((s) => {
          setChunking(s.chunking);
          setModel((m) => m || s.embeddingModel);
        })
        .catch(() => undefined);
    }
  }, [opened, kb, desktop]);

  const idError = !kb && kbId && !KB_ID.test(kbId) ? t('kbForm.idError') : undefined;
  // A new KB may also be full-text only; an existing one keeps a model once it has one (changeKbModel refuses none).
  const presetNames = (presets.data ?? []).filter((p) => p.kind === 'embedding').map((p) => p.name);
  const modelOptions = kb ? presetNames : [...presetNames, FULL_TEXT_ONLY];

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const common = { name: name.trim() || undefined, description, department, languages, chunking };
      const saved = kb
        ? await client.updateKb({ kb_id: kb.kb_id, ...common })
        : await client.createKb({ kb_id: kbId, ...common, ...(model.trim() ? { embedding_model: model.trim() } : {}) });
      if (kb && model.trim() && model.trim() !== kb.embedding_model) {
        // Re-embeds in the background (at once for an empty KB); the dialog stays open to show the progress.
        setChangedAt(new Date(Date.now() - 1000).toISOString());
        await client.changeKbModel({ kb_id: kb.kb_id, model: model.trim() });
        onSaved(saved);
        return;
      }
      onSaved(saved);
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const canSave = (kb || (kbId && !idError)) && chunkingValid(chunking);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={kb ? t('kbForm.editTitle', { name: kb.name }) : t('kbForm.newTitle')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label={t('common.name')}
            placeholder={t('kbForm.namePlaceholder')}
            value={name}
            data-autofocus
            onChange={(e) => {
              const v = e.currentTarget.value;
              setName(v);
              if (!kb && !idTouched) setKbId(slugify(v));
            }}
          />
          <TextInput
            label={t('kbForm.id')}
            description={t('kbForm.idDescription')}
            value={kbId}
            disabled={Boolean(kb)}
            required={!kb}
            error={idError}
            onChange={(e) => {
              setIdTouched(true);
              setKbId(e.currentTarget.value);
            }}
          />
          <Textarea
            label={t('kbForm.description')}
            description={t('kbForm.descriptionHint')}
            autosize
            minRows={2}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <Group grow>
            <TextInput label={t('kbForm.department')} value={department} onChange={(e) => setDepartment(e.currentTarget.value)} />
            <TagsInput label={t('kbForm.languages')} description={t('kbForm.languagesHint')} value={languages} onChange={setLanguages} />
          </Group>
          <Autocomplete
            label={t('kbForm.model')}
            description={kb ? t('kbForm.modelHintEdit') : t('kbForm.modelHintNew')}
            placeholder={DEFAULT_MODEL_PRESET}
            data={modelOptions}
            value={model}
            onChange={setModel}
          />
          {kb && (
            <ModelChangeProgress
              kbId={kb.kb_id}
              since={changedAt}
              onDone={() => void client.getKb({ kb_id: kb.kb_id }).then(onSaved, () => undefined)}
            />
          )}
          <Text fw={500} size="sm">
            {t('kbForm.chunkingDefaults')}
          </Text>
          <ChunkingFields value={chunking} onChange={setChunking} idPrefix="kb-form" />
          <ErrorAlert error={error} title={t('kbForm.saveError')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={!canSave}>
              {kb ? t('common.save') : t('common.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

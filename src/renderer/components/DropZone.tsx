import { Button, Group, Text } from '@mantine/core';
import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { filesFromDataTransfer, filesFromList, type PickedFile } from '../lib/files.js';
import { IconFile, IconFolder, IconUpload } from './icons.js';

/** What the file picker offers (drops take anything; the server names what it cannot read). */
const ACCEPT = [
  '.pdf .docx .odt .rtf .epub .xlsx .xlsm .ods .csv .tsv .pptx .odp .md .markdown .html .htm .txt .log',
  '.png .jpg .jpeg .tif .tiff .webp',
  '.json .yaml .yml .toml .ini .xml .ts .tsx .js .jsx .py .go .rs .java .kt .c .h .cpp .cs .rb .php .swift .sh .sql .css',
]
  .join(' ')
  .split(' ')
  .join(',');

/**
 * Drop files or whole folders (walked with webkitGetAsEntry), or pick them. The zone itself is a button:
 * Enter/Space opens the file picker.
 */
export function DropZone({ onFiles, disabled }: { onFiles: (files: PickedFile[]) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [active, setActive] = useState(false);
  const [reading, setReading] = useState(false);

  function onDragOver(e: DragEvent) {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    setActive(!disabled);
  }

  async function onDrop(e: DragEvent) {
    e.preventDefault();
    setActive(false);
    if (disabled) return;
    setReading(true);
    try {
      const files = await filesFromDataTransfer(e.dataTransfer);
      if (files.length > 0) onFiles(files);
    } finally {
      setReading(false);
    }
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      fileInput.current?.click();
    }
  }

  return (
    <div
      className="drop-zone"
      role="button"
      tabIndex={disabled ? -1 : 0}
      aria-disabled={disabled}
      aria-label={t('drop.aria')}
      data-active={active}
      data-testid="drop-zone"
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setActive(false)}
      onDrop={(e) => void onDrop(e)}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        if (e.target === e.currentTarget) fileInput.current?.click();
      }}
    >
      <IconUpload size={32} />
      <Text fw={500} mt="xs">
        {reading ? t('drop.reading') : t('drop.here')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('drop.formats')}
      </Text>
      <Group justify="center" mt="sm">
        <Button
          variant="light"
          size="xs"
          leftSection={<IconFile size={14} />}
          onClick={() => fileInput.current?.click()}
          disabled={disabled}
        >
          {t('drop.chooseFiles')}
        </Button>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconFolder size={14} />}
          onClick={() => folderInput.current?.click()}
          disabled={disabled}
        >
          {t('drop.chooseFolder')}
        </Button>
      </Group>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        accept={ACCEPT}
        aria-label={t('drop.chooseFiles')}
        data-testid="file-input"
        onChange={(e) => {
          onFiles(filesFromList(e.currentTarget.files));
          e.currentTarget.value = '';
        }}
      />
      <input
        ref={(el) => {
          folderInput.current = el;
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        hidden
        aria-label={t('drop.chooseFolder')}
        onChange={(e) => {
          onFiles(filesFromList(e.currentTarget.files));
          e.currentTarget.value = '';
        }}
      />
    </div>
  );
}

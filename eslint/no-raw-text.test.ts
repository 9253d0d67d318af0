import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { noRawTextRule } from './no-raw-text.js';

const linter = new Linter({ configType: 'flat' });
const config = [
  {
    files: ['**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser as Linter.Parser,
      sourceType: 'module' as const,
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    plugins: { ragdesk: { rules: { 'no-raw-text': noRawTextRule } } },
    rules: { 'ragdesk/no-raw-text': ['error', { allow: ['ragdesk'] }] as Linter.RuleEntry },
  },
];

/** The rule's messages for a snippet of renderer code. */
function lint(code: string): string[] {
  return linter.verify(code, config, { filename: 'src/renderer/x.tsx' }).map((m) => m.message);
}

describe('the no-raw-text rule (UI text comes from the catalogues)', () => {
  it('fails on words in JSX text, in any script', () => {
    expect(lint('const a = <Button>Save</Button>;')).toEqual([expect.stringMatching(/Raw text "Save" in JSX/)]);
    expect(lint('const a = <p>Сохранить</p>;')).toHaveLength(1);
    expect(lint('const a = <p>保存</p>;')).toHaveLength(1);
    expect(lint('const a = <p>{n} chunks</p>;')).toHaveLength(1);
    expect(lint("const a = <p>{ok ? 'yes' : 'no'}</p>;")).toHaveLength(2);
    expect(lint('const a = <p>{`${n} files`}</p>;')).toHaveLength(1);
    expect(lint("const a = <>{busy && 'Reading…'}</>;")).toHaveLength(1);
  });

  it('fails on raw text in user-facing props, including aria-labels, templates and conditionals', () => {
    expect(lint('const a = <TextInput label="Name" />;')[0]).toMatch(/prop "label"/);
    expect(lint("const a = <TextInput placeholder={'Type here'} />;")[0]).toMatch(/prop "placeholder"/);
    expect(lint('const a = <ActionIcon aria-label={`Edit ${kb.name}`} />;')[0]).toMatch(/prop "aria-label"/);
    expect(lint("const a = <Modal title={kb ? 'Edit' : 'New'} />;")).toHaveLength(2);
    expect(lint('const a = <Badge title="Relevance score" />;')).toHaveLength(1);
    expect(lint('const a = <Input error="Too short" description="Used by agents" />;')).toHaveLength(2);
    expect(lint("const a = <ConfirmModal confirmLabel='Delete' />;")).toHaveLength(1);
  });

  it('fails on display text in object literals (Select options, navigation entries)', () => {
    expect(lint("const data = [{ value: 'hybrid', label: 'Hybrid' }];")[0]).toMatch(/Raw text in "label"/);
    expect(lint("const nav = { title: 'Settings', description: `Port ${p}` };")).toHaveLength(2);
  });

  it('passes translated text, text without letters, the allowed product name and non-display props', () => {
    expect(
      lint(`
        const a = (
          <Stack>
            <Title>ragdesk</Title>
            <Button aria-label={t('kb.edit', { name })}>{t('common.save')}</Button>
            <Text>{count} · {'—'} #{index}</Text>
            <TextInput label={t('x.label')} placeholder={t('x.ph')} data-testid="name-input" className="doc-text" />
            <a href="#/settings" id="main">{name}</a>
          </Stack>
        );
        const data = [{ value: 'hybrid', label: t('search.hybrid') }];
        const route = { name: 'kbs', key: 'plain' };
        const msg = 'internal strings outside JSX are fine';
      `),
    ).toEqual([]);
  });
});

/**
 * Every word a person reads in the UI comes from the message catalogues (src/renderer/i18n): this rule fails on
 * a raw string with letters in JSX text, in a user-facing JSX prop (label, title, placeholder, aria-label, …) and
 * in the `label`/`title`/`description`/`placeholder` of an object literal (Select data, nav items). Strings without
 * letters (`—`, `·`, `#`) pass, and so do the names in `allow` (the product name). Write `t('some.key')` instead.
 */

/** JSX props whose value a person reads or hears (screen readers). */
export const USER_FACING_PROPS = new Set([
  'title',
  'label',
  'placeholder',
  'description',
  'alt',
  'error',
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'aria-placeholder',
  'confirmLabel',
  'closeButtonLabel',
  'nothingFoundMessage',
  'tooltip',
]);

/** Object literal keys that hold display text (options of a Select, navigation entries). */
export const USER_FACING_KEYS = new Set(['label', 'title', 'description', 'placeholder', 'aria-label']);

const LETTER = /\p{L}/u;

/** The raw text nodes of an expression a JSX prop or child may hold (through ?:, && and ||), with letters. */
function rawTexts(node, allow) {
  if (!node) return [];
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' && LETTER.test(node.value) && !allow.has(node.value.trim()) ? [node] : [];
    case 'TemplateLiteral':
      return node.quasis.some((q) => LETTER.test(q.value.cooked ?? q.value.raw)) ? [node] : [];
    case 'ConditionalExpression':
      return [...rawTexts(node.consequent, allow), ...rawTexts(node.alternate, allow)];
    case 'LogicalExpression':
      return [...rawTexts(node.left, allow), ...rawTexts(node.right, allow)];
    case 'JSXExpressionContainer':
      return rawTexts(node.expression, allow);
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
      return rawTexts(node.expression, allow);
    default:
      return [];
  }
}

function propName(name) {
  if (!name) return '';
  if (name.type === 'JSXIdentifier') return name.name;
  if (name.type === 'JSXNamespacedName') return `${name.namespace.name}:${name.name.name}`;
  return '';
}

function keyName(key) {
  if (!key) return '';
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'Literal' && typeof key.value === 'string') return key.value;
  return '';
}

/** @type {import('eslint').Rule.RuleModule} */
export const noRawTextRule = {
  meta: {
    type: 'problem',
    docs: { description: 'UI text comes from the i18n catalogues, never a raw string literal' },
    schema: [{ type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }],
    messages: {
      jsxText: 'Raw text "{{text}}" in JSX: put it in the catalogues (src/renderer/i18n) and use t().',
      prop: 'Raw text in the user-facing prop "{{name}}": put it in the catalogues (src/renderer/i18n) and use t().',
      key: 'Raw text in "{{name}}": put it in the catalogues (src/renderer/i18n) and use t().',
    },
  },
  create(context) {
    const allow = new Set((context.options[0]?.allow ?? []).map((s) => s.trim()));
    return {
      JSXText(node) {
        const text = node.value.trim();
        if (LETTER.test(text) && !allow.has(text)) context.report({ node, messageId: 'jsxText', data: { text: text.slice(0, 40) } });
      },
      JSXExpressionContainer(node) {
        const parent = node.parent;
        if (!parent || (parent.type !== 'JSXElement' && parent.type !== 'JSXFragment')) return;
        for (const raw of rawTexts(node.expression, allow))
          context.report({ node: raw, messageId: 'jsxText', data: { text: context.sourceCode.getText(raw).slice(0, 40) } });
      },
      JSXAttribute(node) {
        const name = propName(node.name);
        if (!USER_FACING_PROPS.has(name)) return;
        for (const raw of rawTexts(node.value, allow)) context.report({ node: raw, messageId: 'prop', data: { name } });
      },
      Property(node) {
        const name = keyName(node.key);
        if (node.computed || !USER_FACING_KEYS.has(name)) return;
        for (const raw of rawTexts(node.value, allow)) context.report({ node: raw, messageId: 'key', data: { name } });
      },
    };
  },
};

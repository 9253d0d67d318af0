import path from 'node:path';

/**
 * The layer rule of DESIGN.md: imports point down only. Each layer lists the layers it may import
 * (besides itself) and the packages it must never import. Relative imports are resolved to a file and
 * checked by the layer they land in, so no path trick gets around it.
 */
export const LAYERS = {
  shared: {
    may: [],
    banned: [/^node:/, /^electron/, /^react/, /^@mantine\//, /^@modelcontextprotocol\//, /^@lancedb\//, /^@huggingface\//],
    onlyPackages: ['zod'],
  },
  core: { may: ['shared'], banned: [/^electron/, /^react/, /^@mantine\//, /^@modelcontextprotocol\//] },
  mcp: { may: ['shared', 'core'], banned: [/^electron/, /^react/, /^@mantine\//] },
  http: { may: ['shared', 'core', 'mcp'], banned: [/^electron/, /^react/, /^@mantine\//] },
  cli: { may: ['shared', 'core', 'mcp', 'http'], banned: [/^electron/, /^react/, /^@mantine\//] },
  main: { may: ['shared', 'core', 'mcp', 'http'], banned: [/^react/, /^@mantine\//] },
  preload: { may: ['shared'], banned: [/^node:/, /^react/, /^@mantine\//, /^@lancedb\//] },
  renderer: { may: ['shared'], banned: [/^node:/, /^electron/, /^@lancedb\//, /^@huggingface\//, /^@modelcontextprotocol\//] },
};

/** What a test file may import in any layer (tests run under Node with vitest). */
const TEST_PACKAGES = ['vitest', 'fast-check'];

function layerOf(file) {
  const rel = path.relative(path.join(process.cwd(), 'src'), file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const top = rel.split(path.sep)[0];
  return Object.hasOwn(LAYERS, top) ? top : undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports point down the layers of DESIGN.md only' },
    schema: [],
    messages: {
      upward: 'Layer "{{from}}" may not import from layer "{{to}}" (allowed: {{allowed}}). See DESIGN.md.',
      banned: 'Layer "{{from}}" may not import package "{{pkg}}". See DESIGN.md.',
    },
  },
  create(context) {
    const file = context.filename;
    const from = layerOf(file);
    if (!from) return {};
    const spec = LAYERS[from];
    const isTest = /\.test\.tsx?$/.test(file);
    function check(node, source) {
      if (typeof source !== 'string') return;
      if (source.startsWith('.')) {
        const to = layerOf(path.resolve(path.dirname(file), source));
        if (to && to !== from && !spec.may.includes(to)) {
          context.report({ node, messageId: 'upward', data: { from, to, allowed: spec.may.join(', ') || 'none' } });
        }
        return;
      }
      if (isTest && TEST_PACKAGES.includes(source)) return;
      const bannedHit = spec.banned.some((re) => re.test(source));
      const notAllowed = spec.onlyPackages && !spec.onlyPackages.some((p) => source === p || source.startsWith(`${p}/`));
      if (bannedHit || notAllowed) context.report({ node, messageId: 'banned', data: { from, pkg: source } });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

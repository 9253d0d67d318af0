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

/**
 * Sub-layers inside core (lowest first): a core file may import its own level and the levels below it, never
 * above. `util`, `text` … are plain helpers; `parse`, `chunk`, `embed`, `store` the engine's parts; the services
 * use them; jobs run services; sources run jobs; the dispatcher, `core.ts` and evaluation compose everything.
 */
export const CORE_SUBLAYERS = [
  ['util', 'text', 'config', 'logging', 'metrics'],
  ['parse', 'chunk', 'embed', 'store', 'ocr'],
  ['auth', 'activity', 'health', 'search', 'services'],
  ['jobs'],
  ['sources'],
  ['dispatch', 'eval', 'core.ts', 'test-support.ts'],
];

/** The sub-layer level of a file inside src/core (its first path segment), or undefined outside core. */
export function coreLevel(file) {
  const rel = path.relative(path.join(process.cwd(), 'src', 'core'), file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const top = rel.split(path.sep)[0].replace(/\.js$/, '.ts');
  const level = CORE_SUBLAYERS.findIndex((names) => names.includes(top));
  if (level >= 0) return { top, level };
  // Any other file at core's root composes the parts (like core.ts); a folder must be placed in a level.
  return top.endsWith('.ts') ? { top, level: CORE_SUBLAYERS.length - 1 } : { top, level: undefined };
}

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
      coreUpward: 'core/{{from}} may not import core/{{to}}: core sub-layers point down only (eslint/layers.js CORE_SUBLAYERS).',
      coreUnknown: 'core/{{top}} is in no core sub-layer: add it to CORE_SUBLAYERS in eslint/layers.js.',
      banned: 'Layer "{{from}}" may not import package "{{pkg}}". See DESIGN.md.',
    },
  },
  create(context) {
    const file = context.filename;
    const from = layerOf(file);
    if (!from) return {};
    const spec = LAYERS[from];
    const isTest = /\.test\.tsx?$/.test(file);
    const own = from === 'core' && !isTest ? coreLevel(file) : undefined;
    if (own && own.level === undefined) {
      return { Program: (node) => context.report({ node, messageId: 'coreUnknown', data: { top: own.top } }) };
    }
    function check(node, source) {
      if (typeof source !== 'string') return;
      if (source.startsWith('.')) {
        const target = path.resolve(path.dirname(file), source);
        const to = layerOf(target);
        if (to && to !== from && !spec.may.includes(to)) {
          context.report({ node, messageId: 'upward', data: { from, to, allowed: spec.may.join(', ') || 'none' } });
        }
        if (from === 'core' && to === 'core' && !isTest) {
          const a = coreLevel(file);
          const b = coreLevel(target);
          if (a && b && a.level !== undefined && b.level !== undefined && b.level > a.level) {
            context.report({ node, messageId: 'coreUpward', data: { from: a.top, to: b.top } });
          }
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

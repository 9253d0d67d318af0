import path from 'node:path';
import { cycleThrough, runtimeImports } from './import-graph.js';

/**
 * No runtime import cycles in src/: a module may not import (at run time, through any chain) a module that
 * imports it back. Type-only imports are erased by TypeScript and do not count. Reported once per import that
 * starts a cycle, with the chain.
 */
/** @type {import('eslint').Rule.RuleModule} */
export const noCycleRule = {
  meta: {
    type: 'problem',
    docs: { description: 'No runtime import cycles' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: { cycle: 'Runtime import cycle: {{chain}}' },
  },
  create(context) {
    const file = context.filename;
    const src = path.resolve(process.cwd(), context.options[0]?.root ?? 'src');
    if (path.relative(src, file).startsWith('..')) return {};
    const deps = new Set(runtimeImports(file));
    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      for (const dep of deps) {
        const spec = path.resolve(path.dirname(file), source).replace(/\.(c|m)?js$/, '');
        if (dep.replace(/\.tsx?$/, '') !== spec && dep !== path.join(spec, 'index.ts')) continue;
        const chain = cycleThrough(file, dep);
        if (chain) context.report({ node, messageId: 'cycle', data: { chain: chain.map((f) => path.relative(src, f)).join(' → ') } });
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

import fs from 'node:fs';
import path from 'node:path';
import { parse } from '@typescript-eslint/typescript-estree';

/**
 * The project's runtime import graph: for each source file, the project files it imports at run time.
 * `import type`, `export type` and imports whose every specifier is `type X` are left out (TypeScript erases
 * them), so a cycle through types only is no cycle. Relative `.js` specifiers resolve to the `.ts`/`.tsx` file.
 */
const cache = new Map();

function resolve(fromFile, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(fromFile), spec);
  const stem = base.replace(/\.(c|m)?js$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts')]) {
    if (/\.(ts|tsx)$/.test(candidate) && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

function isRuntime(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return false;
  if (node.type === 'ImportDeclaration' && node.specifiers.length > 0) {
    return node.specifiers.some((s) => s.type !== 'ImportSpecifier' || s.importKind !== 'type');
  }
  if (node.type === 'ExportNamedDeclaration' && node.specifiers?.length > 0) {
    return node.specifiers.some((s) => s.exportKind !== 'type');
  }
  return true;
}

/** Runtime imports of `file` (absolute paths of project files), cached by mtime for one lint run. */
export function runtimeImports(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const hit = cache.get(file);
  if (hit && hit.mtime === stat.mtimeMs) return hit.deps;
  const deps = new Set();
  let ast;
  try {
    ast = parse(fs.readFileSync(file, 'utf8'), { jsx: file.endsWith('.tsx'), range: false, loc: false });
  } catch {
    ast = { body: [] };
  }
  const visit = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const src =
      node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || (node.type === 'ExportNamedDeclaration' && node.source)
        ? node.source.value
        : node.type === 'ImportExpression' && node.source.type === 'Literal'
          ? node.source.value
          : undefined;
    if (typeof src === 'string' && (node.type === 'ImportExpression' || isRuntime(node))) {
      const target = resolve(file, src);
      if (target) deps.add(target);
    }
    for (const key of Object.keys(node)) if (key !== 'parent' && node[key] && typeof node[key] === 'object') visit(node[key]);
  };
  visit(ast.body);
  const list = [...deps];
  cache.set(file, { mtime: stat.mtimeMs, deps: list });
  return list;
}

/** A shortest runtime import path from `start` back to `start` through `first`, or undefined when there is none. */
export function cycleThrough(start, first) {
  const prev = new Map([[first, null]]);
  const queue = [first];
  while (queue.length) {
    const cur = queue.shift();
    if (cur === start) {
      const chain = [];
      for (let at = cur; at !== null; at = prev.get(at)) chain.unshift(at);
      return [start, ...chain];
    }
    for (const next of runtimeImports(cur)) {
      if (!prev.has(next)) {
        prev.set(next, cur);
        queue.push(next);
      }
    }
  }
  return undefined;
}

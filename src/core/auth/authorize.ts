import type { OpSpec } from '../../shared/contract/op.js';
import { RagError } from '../../shared/errors.js';
import type { CallerScope } from './scope.js';

/** The KB ids an operation's input names (`kb_id`, `kb_ids`). */
function namedKbs(input: unknown): string[] {
  if (!input || typeof input !== 'object') return [];
  const o = input as { kb_id?: unknown; kb_ids?: unknown };
  const ids: string[] = [];
  if (typeof o.kb_id === 'string') ids.push(o.kb_id);
  if (Array.isArray(o.kb_ids)) for (const id of o.kb_ids) if (typeof id === 'string') ids.push(id);
  return ids;
}

/**
 * The one authorisation policy, for every door (IPC, /api, MCP, CLI bridge): the operation's `kind`, its
 * owner-only fields and the caller's scope. A KB the caller may not read is reported as not found, so a key never
 * learns that it exists. Operations that name no KB are filtered by the operation itself (it gets the scope).
 */
export function authorize(method: string, spec: OpSpec, input: unknown, scope: CallerScope): void {
  if (scope.owner) return;
  if (spec.kind === 'admin') throw new RagError('permission_denied', `${method} needs the owner's rights`);
  const fields = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const ownerField = spec.ownerFields?.find((f) => fields[f] !== undefined);
  if (ownerField) throw new RagError('permission_denied', `${method} with a server-side ${ownerField} needs the owner's rights`);
  const ids = namedKbs(input);
  if (spec.keyNeedsKb && ids.length === 0) throw new RagError('permission_denied', `${method} needs a kb_id this key may read`);
  for (const id of ids) {
    if (!scope.read.has(id) && !scope.write.has(id)) {
      throw new RagError('kb_not_found', `knowledge base "${id}" not found`, { details: { kb_id: id } });
    }
    if (spec.kind === 'write' && !scope.write.has(id)) throw new RagError('permission_denied', `this key may not write to "${id}"`);
    if (spec.kind === 'read' && !scope.read.has(id)) throw new RagError('permission_denied', `this key may not read "${id}"`);
  }
}

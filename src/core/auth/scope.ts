import type { KbRights } from '../../shared/contract/keys.js';

/**
 * Who is calling, as the dispatcher sees it: the local owner (every right), or an API key with the KBs it may
 * read and write, resolved against the KBs that exist now (so `'*'` also covers KBs created after the key).
 */
export type CallerScope = { owner: true } | { owner: false; read: ReadonlySet<string>; write: ReadonlySet<string> };

export const OWNER_SCOPE: CallerScope = Object.freeze({ owner: true });

/** Who presented credentials: the owner (lock-file token, local stdio, the desktop window) or an API key. */
export type Principal = { kind: 'owner'; name: 'owner' } | { kind: 'key'; id: string; name: string; read: KbRights; write: KbRights };

export const OWNER: Principal = Object.freeze({ kind: 'owner', name: 'owner' });

function rightsSet(rights: KbRights, all: Iterable<string>): Set<string> {
  return new Set(rights === '*' ? all : rights);
}

/** The scope a principal gets now. Write implies read. */
export function scopeOf(principal: Principal, allKbIds: () => Iterable<string>): CallerScope {
  if (principal.kind === 'owner') return OWNER_SCOPE;
  const ids = [...allKbIds()];
  const write = rightsSet(principal.write, ids);
  const read = rightsSet(principal.read, ids);
  for (const id of write) read.add(id);
  return { owner: false, read, write };
}

/** The KBs a caller may read; undefined means every KB (the owner). */
export function readableKbs(scope: CallerScope): ReadonlySet<string> | undefined {
  return scope.owner ? undefined : scope.read;
}

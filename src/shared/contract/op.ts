import type { z } from 'zod';

/**
 * What a caller needs to call an operation: `read`/`write` on the KBs named in its input (`kb_id`, `kb_ids`;
 * none named means every KB the caller may read, filtered by the operation itself), or `admin`: the owner only.
 */
export type OpKind = 'read' | 'write' | 'admin';

export interface OpSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  kind: OpKind;
  summary: string;
  /**
   * Input fields that name files on the server's disk: a call that sets any of them is the owner's only, whatever
   * `kind` says (a key must never read this user's files by path).
   */
  ownerFields?: readonly string[];
  /** A key must name a KB it may read (`kb_id`); only the owner may call it without one. */
  keyNeedsKb?: boolean;
  /** The call parses, embeds and writes: it waits while indexing is paused. */
  ingests?: boolean;
}

/** Any contract: operation name → spec. */
export type AnyContract = Record<string, OpSpec>;

/** A typed client of a contract: one async method per operation, input as callers write it, output as parsed. */
export type ClientOf<C extends AnyContract> = {
  [M in keyof C]: (input: z.input<C[M]['input']>) => Promise<z.output<C[M]['output']>>;
};

/** A transport: carries one call of `method` with `input` and answers its output (or throws a RagError). */
export type Transport = (method: string, input: unknown) => Promise<unknown>;

/**
 * Turn any transport into a typed client of `contract` (in the spirit of VS Code's ProxyChannel): IPC, HTTP,
 * the CLI bridge, in-process dispatch and tests all build their clients here, and nowhere else.
 */
export function clientOf<C extends AnyContract>(contract: C, call: Transport): ClientOf<C> {
  const client: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const name of Object.keys(contract)) client[name] = (input: unknown) => call(name, input ?? {});
  return Object.freeze(client) as ClientOf<C>;
}

import type { z } from 'zod';
import { contract, type MethodName, type RagClient } from '../shared/contract/index.js';
import { desktopContract, type DesktopMethodName, type IpcReply } from '../shared/desktop.js';
import { RagError, toErrorEnvelope } from '../shared/errors.js';

/** Handlers of the desktop-only operations (settings, server status); each gets input already validated. */
export type DesktopHandlers = {
  [M in DesktopMethodName]: (
    input: z.output<(typeof desktopContract)[M]['input']>,
  ) => Promise<z.input<(typeof desktopContract)[M]['output']>>;
};

export interface IpcBridgeOptions {
  client: RagClient;
  desktop?: DesktopHandlers;
}

/** The zod issues as one readable line: `kb_id: kb_id must match …; top_k: top_k must be in (0, 50]`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/**
 * The one IPC entry point, as a plain function (no Electron): `(method, input) → {ok, result} | {ok:false, error}`.
 * The method must be one of the contract's (or the desktop app's own) operations; the input is re-validated
 * with the contract's schema here in main, whatever the renderer sent; every failure becomes an error envelope
 * with a stable code, never a thrown exception or a stack trace.
 */
export function createIpcBridge(options: IpcBridgeOptions): (method: unknown, input: unknown) => Promise<IpcReply> {
  return async (method, input) => {
    try {
      if (typeof method !== 'string') throw new RagError('invalid_parameter', 'method must be a string');
      if (Object.hasOwn(contract, method)) {
        const name = method as MethodName;
        const parsed = contract[name].input.safeParse(input ?? {});
        if (!parsed.success)
          throw new RagError('invalid_parameter', `${name}: ${describeIssues(parsed.error)}`, { details: { method: name } });
        const fn = options.client[name] as (input: unknown) => Promise<unknown>;
        return { ok: true, result: await fn(parsed.data) };
      }
      if (options.desktop && Object.hasOwn(desktopContract, method)) {
        const name = method as DesktopMethodName;
        const spec = desktopContract[name];
        const parsed = spec.input.safeParse(input ?? {});
        if (!parsed.success)
          throw new RagError('invalid_parameter', `${name}: ${describeIssues(parsed.error)}`, { details: { method: name } });
        const fn = options.desktop[name] as (input: unknown) => Promise<unknown>;
        return { ok: true, result: spec.output.parse(await fn(parsed.data)) };
      }
      throw new RagError('invalid_parameter', `unknown method "${method.slice(0, 100)}"`);
    } catch (err) {
      return { ok: false, error: toErrorEnvelope(err) };
    }
  };
}

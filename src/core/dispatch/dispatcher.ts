import type { z } from 'zod';
import { clientOf, type AnyContract, type ClientOf, type OpSpec } from '../../shared/contract/op.js';
import { RagError } from '../../shared/errors.js';
import { authorize } from '../auth/authorize.js';
import type { CallerScope } from '../auth/scope.js';
import { parseInput } from '../util/validate.js';

/** One call on its way through the dispatcher: input already parsed and authorised. */
export interface DispatchCall {
  method: string;
  spec: OpSpec;
  input: unknown;
  scope: CallerScope;
}

/** Runs around every call (pause, metrics …); calls `next()` to go on, or throws to refuse. */
export type Middleware = (call: DispatchCall, next: () => Promise<unknown>) => Promise<unknown>;

/** What implements a contract: one function per operation, given parsed input and the caller's scope. */
export type Handlers<C extends AnyContract> = {
  [M in keyof C]: (input: z.output<C[M]['input']>, scope: CallerScope) => Promise<z.input<C[M]['output']>>;
};

/**
 * The one way into a contract, for every door (IPC, `/api`, MCP tools, the CLI): look the method up, parse the
 * input once, authorise it (the operation's kind and owner-only fields against the caller's scope), run the
 * middleware, call the handler and check its output against the contract.
 */
export class Dispatcher<C extends AnyContract> {
  private readonly middleware: Middleware[] = [];

  constructor(
    private readonly contract: C,
    private readonly handlers: Handlers<C>,
  ) {}

  /** Add a middleware (outermost first); returns its removal. */
  use(mw: Middleware): () => void {
    this.middleware.push(mw);
    return () => {
      const i = this.middleware.indexOf(mw);
      if (i >= 0) this.middleware.splice(i, 1);
    };
  }

  has(method: string): method is keyof C & string {
    return Object.hasOwn(this.contract, method);
  }

  spec(method: string): OpSpec | undefined {
    return this.has(method) ? this.contract[method] : undefined;
  }

  async dispatch(method: string, raw: unknown, scope: CallerScope): Promise<unknown> {
    if (!this.has(method)) throw new RagError('invalid_parameter', `unknown method "${String(method).slice(0, 100)}"`);
    const spec = this.contract[method]!;
    const input = parseInput(spec.input, raw ?? {});
    authorize(method, spec, input, scope);
    const handler = this.handlers[method] as (input: unknown, scope: CallerScope) => Promise<unknown>;
    const call: DispatchCall = { method, spec, input, scope };
    const run = async () => {
      const checked = spec.output.safeParse(await handler(input, scope));
      if (!checked.success) throw new RagError('internal', `${method} produced a result outside the contract`, { cause: checked.error });
      return checked.data;
    };
    return this.middleware.reduceRight<() => Promise<unknown>>((next, mw) => () => mw(call, next), run)();
  }

  /** A typed client whose every call goes through `dispatch` with `scope`. */
  clientFor(scope: CallerScope): ClientOf<C> {
    return clientOf(this.contract, (method, input) => this.dispatch(method, input, scope));
  }
}

import type { Parser } from 'htmlparser2';

/**
 * htmlparser2 keeps its open elements top-first and pushes with `unshift`, which is linear in the depth: 600k nested
 * elements took minutes. This stack holds them top-last (push/pop) and presents the same interface — index 0 is the
 * top, `shift`/`unshift`/`indexOf`/`length` — with a count per name so that looking for a tag that is not open (a
 * stray `</i>`) costs nothing. The parser's output is unchanged; only the cost of deep nesting is.
 */
class TopFirstStack {
  private readonly items: string[] = [];
  private readonly counts = new Map<string, number>();

  get length(): number {
    return this.items.length;
  }

  set length(n: number) {
    while (this.items.length > n) this.shift();
  }

  at(i: number): string | undefined {
    return this.items[this.items.length - 1 - i];
  }

  shift(): string | undefined {
    const name = this.items.pop();
    if (name !== undefined) this.counts.set(name, (this.counts.get(name) ?? 1) - 1);
    return name;
  }

  unshift(name: string): number {
    this.items.push(name);
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    return this.items.length;
  }

  indexOf(name: string): number {
    if (!this.counts.get(name)) return -1;
    const i = this.items.lastIndexOf(name);
    return i < 0 ? -1 : this.items.length - 1 - i;
  }
}

export function withLinearStack<P extends Parser>(parser: P): P {
  const stack = new TopFirstStack();
  const view = new Proxy(stack, {
    get(target, prop) {
      if (typeof prop === 'string' && prop.length > 0 && prop.charCodeAt(0) >= 48 && prop.charCodeAt(0) <= 57)
        return target.at(Number(prop));
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set(target, prop, value) {
      return Reflect.set(target, prop, value, target);
    },
  });
  (parser as unknown as { stack: unknown }).stack = view;
  return parser;
}

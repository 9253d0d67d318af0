import type { Rule } from 'eslint';

export declare const USER_FACING_PROPS: Set<string>;
export declare const USER_FACING_KEYS: Set<string>;
export declare const noRawTextRule: Rule.RuleModule;

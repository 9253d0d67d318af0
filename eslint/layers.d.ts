import type { Rule } from 'eslint';

export declare const LAYERS: Record<string, { may: string[]; banned: RegExp[]; onlyPackages?: string[] }>;
export declare const layersRule: Rule.RuleModule;

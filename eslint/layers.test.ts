import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layersRule } from './layers.js';
import { noCycleRule } from './no-cycle.js';

const linter = new Linter({ configType: 'flat' });
const config = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser, sourceType: 'module' as const },
    plugins: { ragdesk: { rules: { layers: layersRule } } },
    rules: { 'ragdesk/layers': 'error' as const },
  },
];

/** Messages of the layer rule for `code` placed at `file` (relative to the project root). */
function lint(file: string, code: string): string[] {
  return linter.verify(code, config, { filename: path.join(process.cwd(), file) }).map((m) => m.message);
}

describe('the layer rule (DESIGN.md: imports point down only)', () => {
  it('rejects upward imports, however the path is written', () => {
    expect(lint('src/core/services/x.ts', "import { y } from '../../mcp/server.js';")[0]).toMatch(/"core" may not import from layer "mcp"/);
    expect(lint('src/renderer/screens/x.ts', "import { Core } from '../../core/core.js';")[0]).toMatch(
      /"renderer" may not import from layer "core"/,
    );
    expect(lint('src/shared/x.ts', "export * from '../cli/program.js';")[0]).toMatch(/"shared" may not import/);
    expect(lint('src/preload/x.ts', "const m = await import('../main/ipc.js');")[0]).toMatch(/"preload" may not import from layer "main"/);
  });

  it('rejects runtime-specific packages in the wrong layer', () => {
    expect(lint('src/core/x.ts', "import { app } from 'electron';")[0]).toMatch(/may not import package "electron"/);
    expect(lint('src/shared/x.ts', "import fs from 'node:fs';")[0]).toMatch(/"shared" may not import package "node:fs"/);
    expect(lint('src/renderer/x.ts', "import * as l from '@lancedb/lancedb';")[0]).toMatch(/package "@lancedb\/lancedb"/);
  });

  it('allows imports that point down', () => {
    expect(lint('src/mcp/x.ts', "import { Core } from '../core/core.js';\nimport { z } from 'zod';")).toEqual([]);
    expect(
      lint('src/renderer/x.ts', "import type { Hit } from '../shared/contract/index.js';\nimport { Button } from '@mantine/core';"),
    ).toEqual([]);
    expect(lint('src/shared/x.ts', "import { z } from 'zod';\nimport { RagError } from './errors.js';")).toEqual([]);
  });
});

describe('core sub-layers', () => {
  it('lets a core part import its own level and below, never above', () => {
    expect(lint('src/core/store/x.ts', "import { search } from '../search/search-service.js';")[0]).toMatch(
      /core\/store may not import core\/search/,
    );
    expect(lint('src/core/services/x.ts', "import { runJob } from '../jobs/runner.js';")[0]).toMatch(
      /core\/services may not import core\/jobs/,
    );
    expect(lint('src/core/parse/x.ts', "import type { Core } from '../core.js';")[0]).toMatch(/core\/parse may not import core\/core.ts/);
    expect(
      lint('src/core/jobs/x.ts', "import { ingest } from '../services/ingest.js';\nimport { sha256 } from '../util/hash.js';"),
    ).toEqual([]);
    expect(lint('src/core/newthing/x.ts', 'export const a = 1;')[0]).toMatch(/in no core sub-layer/);
  });
});

describe('the no-cycle rule', () => {
  const cycleConfig = (root: string) => [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser as Linter.Parser, sourceType: 'module' as const },
      plugins: { ragdesk: { rules: { 'no-cycle': noCycleRule } } },
      rules: { 'ragdesk/no-cycle': ['error', { root }] as Linter.RuleEntry },
    },
  ];

  it('finds a runtime cycle through any chain, and ignores type-only imports', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-cycle-'));
    const put = (name: string, code: string) => fs.writeFileSync(path.join(root, name), code);
    put('a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    put('b.ts', "import { c } from './c.js';\nexport const b = () => c;\n");
    put('c.ts', "import { a } from './a.js';\nexport const c = () => a;\n");
    put('d.ts', "import type { E } from './e.js';\nexport type D = E;\nexport const d = 1;\n");
    put('e.ts', "import { d } from './d.js';\nexport type E = number;\nexport const e = d;\n");
    const cycleLinter = new Linter({ configType: 'flat', cwd: root });
    const check = (name: string) =>
      cycleLinter
        .verify(fs.readFileSync(path.join(root, name), 'utf8'), cycleConfig(root), { filename: path.join(root, name) })
        .map((m) => m.message);
    try {
      expect(check('a.ts')[0]).toMatch(/Runtime import cycle: a\.ts → b\.ts → c\.ts → a\.ts/);
      expect(check('c.ts')).toHaveLength(1);
      expect(check('d.ts')).toEqual([]);
      expect(check('e.ts')).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

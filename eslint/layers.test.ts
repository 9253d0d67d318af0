import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layersRule } from './layers.js';

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

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'e2e/**/*.test.ts', 'eslint/**/*.test.ts'],
    environment: 'node',
    // One temporary directory per run, removed at its end (scripts/vitest-tmpdir.ts).
    globalSetup: ['scripts/vitest-tmpdir.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // LanceDB and the embedding worker are heavy; two cores here.
    maxWorkers: 2,
  },
});

import { z } from 'zod';
import { SourceSchema } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { readJsonFile, writeFileAtomic } from '../util/json-file.js';

/** What is saved of a source: everything but its live state. */
export const SourceConfigSchema = SourceSchema.omit({ state: true, watching: true, job_id: true });
export type SourceConfig = z.infer<typeof SourceConfigSchema>;

const FileSchema = z.object({ version: z.literal(1), sources: z.array(SourceConfigSchema) });

/** Folder sources of every KB in `<data>/sources.json`, written atomically. */
export class SourceRegistry {
  private readonly sources = new Map<string, SourceConfig>();

  constructor(private readonly file: string) {
    const parsed = FileSchema.safeParse(readJsonFile<unknown>(file, { version: 1, sources: [] }));
    if (!parsed.success) throw new RagError('internal', `the sources file ${file} is unreadable`, { cause: parsed.error });
    for (const s of parsed.data.sources) this.sources.set(s.source_id, s);
  }

  list(kbId?: string): SourceConfig[] {
    return [...this.sources.values()].filter((s) => !kbId || s.kb_id === kbId).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  find(id: string): SourceConfig | undefined {
    return this.sources.get(id);
  }

  get(id: string): SourceConfig {
    const s = this.sources.get(id);
    if (!s) throw new RagError('invalid_parameter', `no folder source "${id}" (see: ragdesk sources list)`, { details: { source_id: id } });
    return s;
  }

  put(source: SourceConfig): SourceConfig {
    this.sources.set(source.source_id, SourceConfigSchema.parse(source));
    this.save();
    return source;
  }

  /** Update a source if it still exists (a sync may finish after its source was removed). */
  patch(id: string, patch: Partial<SourceConfig>): SourceConfig | undefined {
    const s = this.sources.get(id);
    return s ? this.put({ ...s, ...patch }) : undefined;
  }

  remove(id: string): void {
    if (this.sources.delete(id)) this.save();
  }

  private save(): void {
    writeFileAtomic(this.file, `${JSON.stringify({ version: 1, sources: this.list() }, null, 2)}\n`);
  }
}

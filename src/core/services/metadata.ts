import type { Metadata, MetadataFieldType } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { METADATA_KEY, metadataColumn } from '../store/filters.js';

export function inferFieldType(key: string, value: unknown): MetadataFieldType | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RagError('invalid_parameter', `metadata "${key}" must be a finite number`);
    return 'number';
  }
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    if (value.every((v) => typeof v === 'string')) return 'string_list';
    if (value.every((v) => typeof v === 'number' && Number.isFinite(v))) return 'number_list';
    throw new RagError('invalid_parameter', `metadata "${key}" mixes strings and numbers in one list`);
  }
  throw new RagError('invalid_parameter', `metadata "${key}" must be a string, number, boolean or list`);
}

/**
 * Check a document's metadata against the KB's known field types. Returns the fields that are new to the KB
 * and the typed column values for the chunk rows. A known field given with another type is `invalid_parameter`.
 */
export function typeMetadata(
  metadata: Metadata,
  known: Readonly<Record<string, MetadataFieldType>>,
): { newFields: Record<string, MetadataFieldType>; columns: Record<string, unknown> } {
  const newFields: Record<string, MetadataFieldType> = {};
  const columns: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (!METADATA_KEY.test(key)) continue; // kept in the JSON, not filterable
    const type = inferFieldType(key, value);
    if (!type) continue;
    const have = Object.hasOwn(known, key) ? known[key] : undefined;
    if (have && have !== type) {
      throw new RagError('invalid_parameter', `metadata "${key}" is a ${have} in this knowledge base, got a ${type}`, {
        details: { field: key, expected: have, got: type },
      });
    }
    if (!have) newFields[key] = type;
    columns[metadataColumn(key)] = value;
  }
  return { newFields, columns };
}

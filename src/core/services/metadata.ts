import {
  MAX_FILTERABLE_FIELDS,
  MAX_METADATA_JSON_CHARS,
  MAX_METADATA_KEYS,
  type Metadata,
  type MetadataFieldType,
} from '../../shared/contract/index.js';
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
 * A document with more than MAX_METADATA_KEYS keys (or metadata over MAX_METADATA_JSON_CHARS) is `too_large`.
 * A KB keeps at most MAX_FILTERABLE_FIELDS filterable fields (each is a column of its chunk table, and every search
 * pays for them): keys beyond are kept in the document's metadata, not filterable, and said in `warnings`.
 */
export function typeMetadata(
  metadata: Metadata,
  known: Readonly<Record<string, MetadataFieldType>>,
): { newFields: Record<string, MetadataFieldType>; columns: Record<string, unknown>; warnings: string[] } {
  const keys = Object.keys(metadata).length;
  if (keys > MAX_METADATA_KEYS) {
    throw new RagError('too_large', `the document's metadata has ${keys} keys; the limit is ${MAX_METADATA_KEYS}`, {
      details: { keys, limit: MAX_METADATA_KEYS },
    });
  }
  const size = JSON.stringify(metadata).length;
  if (size > MAX_METADATA_JSON_CHARS) {
    throw new RagError('too_large', `the document's metadata is ${size} characters as JSON; the limit is ${MAX_METADATA_JSON_CHARS}`, {
      details: { characters: size, limit: MAX_METADATA_JSON_CHARS },
    });
  }
  const newFields: Record<string, MetadataFieldType> = {};
  const columns: Record<string, unknown> = {};
  const unfilterable: string[] = [];
  let fieldCount = Object.keys(known).length;
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
    if (!have) {
      if (fieldCount >= MAX_FILTERABLE_FIELDS) {
        unfilterable.push(key);
        continue;
      }
      newFields[key] = type;
      fieldCount++;
    }
    columns[metadataColumn(key)] = value;
  }
  const warnings = unfilterable.length
    ? [
        `metadata ${unfilterable.map((k) => `"${k}"`).join(', ')} kept but not filterable: this knowledge base already has ` +
          `${MAX_FILTERABLE_FIELDS} filterable fields (the limit)`,
      ]
    : [];
  return { newFields, columns, warnings };
}

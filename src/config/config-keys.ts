import type { z } from 'zod';
import { durationSchema } from './duration.js';

/** One key of the config file as the schema declares it: dotted path (`[]` for list items), type, default. */
export interface ConfigKey {
  path: string;
  type: string;
  /** The default as written in the file (`1h`, `8080`, `[]`), `unset` for optional keys, `required` for mandatory item keys. */
  defaultValue: string;
  /** A non-empty list default, item by item (`defaultValue` joins them with commas). */
  defaultItems?: string[];
}

/** The parts of a zod 4 schema definition the walk reads. */
interface SchemaDefinition {
  type: string;
  innerType?: z.ZodType;
  defaultValue?: unknown;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  entries?: Record<string, string | number>;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
}

/** What unwrapping defaults and optionals found around a schema. */
interface Unwrapped {
  schema: z.ZodType;
  defaultValue?: unknown;
  hasDefault: boolean;
  optional: boolean;
}

const wrappers = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional']);

function definitionOf(schema: z.ZodType): SchemaDefinition {
  return schema._zod.def as unknown as SchemaDefinition;
}

/** The schema one wrapper further in (a default, optional or pipe peeled), or undefined at the core. */
function innerOf(schema: z.ZodType): z.ZodType | undefined {
  if (schema === durationSchema) return undefined;
  const definition = definitionOf(schema);
  if (wrappers.has(definition.type)) return definition.innerType;
  if (definition.type !== 'pipe' || !definition.in || !definition.out) return undefined;
  return definitionOf(definition.out).type === 'transform' ? definition.in : definition.out;
}

/** Records the outermost default and whether an optional wraps the schema. */
function note(found: Unwrapped, definition: SchemaDefinition): void {
  if (!found.hasDefault && (definition.type === 'default' || definition.type === 'prefault')) {
    found.hasDefault = true;
    found.defaultValue = definition.defaultValue;
  }
  if (definition.type === 'optional') found.optional = true;
}

/** Peels defaults, optionals and pipes off a schema (keeping the outermost default); a duration stays whole. */
function unwrap(schema: z.ZodType): Unwrapped {
  const found: Unwrapped = { schema, hasDefault: false, optional: false };
  for (let inner = innerOf(schema); inner !== undefined; inner = innerOf(inner)) {
    note(found, definitionOf(found.schema));
    found.schema = inner;
  }
  return found;
}

/** One check of a number schema (`.int()`, `.min()`, `.max()`, `.positive()`). */
interface NumberCheck {
  check: string;
  format?: string;
  value?: number;
  inclusive?: boolean;
}

function numberType(schema: z.ZodType): string {
  const checks = ((definitionOf(schema) as { checks?: { _zod: { def: NumberCheck } }[] }).checks ?? []).map((check) => check._zod.def);
  const kind = checks.some((check) => check.format?.includes('int')) ? 'integer' : 'number';
  const low = checks.filter((check) => check.check === 'greater_than').at(-1);
  const high = checks.find((check) => check.check === 'less_than');
  const from = low ? (low.inclusive ? `≥ ${low.value}` : `> ${low.value}`) : '';
  if (low && high) return `${kind} ${low.value}–${high.value}`;
  return from ? `${kind} ${from}` : kind;
}

/** The words for each kind of schema that is not a plain `string`, `boolean` or `object`. */
const typeWords: Record<string, (schema: z.ZodType, definition: SchemaDefinition) => string> = {
  number: (schema) => numberType(schema),
  enum: (_schema, definition) => Object.values(definition.entries ?? {}).join(' | '),
  union: (_schema, definition) => (definition.options ?? []).map(typeOf).join(' | '),
  array: (_schema, definition) => (definition.element ? `list of ${typeOf(definition.element)}` : 'list'),
  record: (_schema, definition) =>
    `map of ${definition.keyType ? typeOf(definition.keyType) : 'string'} → ${definition.valueType ? typeOf(definition.valueType) : 'any'}`,
};

/** The type of a schema in words: `string`, `integer 0–65535`, `duration`, `a | b`, `list of string`, `map of string → string`. */
export function typeOf(schema: z.ZodType): string {
  const inner = unwrap(schema).schema;
  if (inner === durationSchema) return 'duration';
  const definition = definitionOf(inner);
  return typeWords[definition.type]?.(inner, definition) ?? definition.type;
}

const durationUnits: [number, string][] = [
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'm'],
  [1000, 's'],
];

/** Milliseconds as the config file writes them: `7d`, `1h`, `15m`, `30s`, `500ms`. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds === 0) return '0s';
  const unit = durationUnits.find(([size]) => milliseconds % size === 0);
  return unit ? `${milliseconds / unit[0]}${unit[1]}` : `${milliseconds}ms`;
}

function formatValue(value: unknown, duration: boolean): string {
  if (duration && typeof value === 'number') return formatDuration(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : value.map((item) => formatValue(item, false)).join(', ');
  if (typeof value === 'string') return value === '' ? "''" : value;
  return JSON.stringify(value);
}

function defaultOf(found: Unwrapped, inList: boolean): string {
  if (found.hasDefault) return formatValue(found.defaultValue, found.schema === durationSchema);
  if (found.optional) return 'unset';
  return inList ? 'required' : 'unset';
}

/** Whether the schema (its defaults and optionals peeled) is an object whose keys are listed one by one. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const inner = unwrap(schema).schema;
  if (inner === durationSchema) return undefined;
  const definition = definitionOf(inner);
  return definition.type === 'object' ? definition.shape : undefined;
}

/** The key of one leaf: its type and default (a non-empty list default item by item too). */
function leafKey(schema: z.ZodType, path: string, found: Unwrapped, inList: boolean): ConfigKey {
  const key: ConfigKey = { path, type: typeOf(schema), defaultValue: defaultOf(found, inList) };
  if (Array.isArray(found.defaultValue) && found.defaultValue.length > 0) key.defaultItems = found.defaultValue.map((item) => formatValue(item, false));
  return key;
}

/** The object schema a list's items have, when they are objects. */
function itemObject(found: Unwrapped): z.ZodType | undefined {
  const definition = definitionOf(found.schema);
  return definition.type === 'array' && definition.element && objectShape(definition.element) ? definition.element : undefined;
}

function walk(schema: z.ZodType, path: string, inList: boolean, keys: ConfigKey[]): void {
  const shape = objectShape(schema);
  if (shape) {
    for (const [name, child] of Object.entries(shape)) walk(child, path === '' ? name : `${path}.${name}`, inList, keys);
    return;
  }
  const found = unwrap(schema);
  keys.push(leafKey(schema, path, found, inList));
  const item = itemObject(found);
  if (item) walk(item, `${path}[]`, true, keys);
}

/** Every key of the config file the schema declares, in the schema's order (list items as `key[].field`). */
export function configKeys(schema: z.ZodType): ConfigKey[] {
  const keys: ConfigKey[] = [];
  walk(schema, '', false, keys);
  return keys;
}

import type { YamlNode } from './yaml-tree';

/** An OpenAPI v3 schema as the API server serves it (the parts checked here). */
export interface OpenApiSchema {
  type?: string;
  format?: string;
  $ref?: string;
  allOf?: OpenApiSchema[];
  properties?: Record<string, OpenApiSchema>;
  additionalProperties?: OpenApiSchema | boolean;
  items?: OpenApiSchema;
  required?: string[];
  enum?: unknown[];
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** The kind's schema from `GET /api/schemas/{resource}`. */
export interface KindSchemas {
  root: string;
  schemas: Record<string, OpenApiSchema>;
}

export interface SchemaIssue {
  from: number;
  to: number;
  severity: 'error' | 'warning';
  message: string;
}

const refPrefix = '#/components/schemas/';

/** A schema with `$ref` and single `allOf` wrappers followed. */
function resolve(schema: OpenApiSchema | undefined, all: KindSchemas): OpenApiSchema | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current.$ref) current = all.schemas[current.$ref.slice(refPrefix.length)];
    else if (current.allOf?.length === 1 && !current.properties) current = current.allOf[0];
    else return current;
  }
  return current;
}

const integerText = /^[-+]?(0|[1-9][0-9]*)$/;
const numberText = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const booleanText = /^(true|false|True|False|TRUE|FALSE)$/;
const nullText = /^(null|Null|NULL|~|)$/;

/** The YAML 1.2 core type of a scalar. */
export function scalarType(node: Extract<YamlNode, { kind: 'scalar' }>): 'string' | 'integer' | 'number' | 'boolean' | 'null' {
  if (node.quoted) return 'string';
  if (nullText.test(node.value)) return 'null';
  if (booleanText.test(node.value)) return 'boolean';
  if (integerText.test(node.value)) return 'integer';
  if (numberText.test(node.value)) return 'number';
  return 'string';
}

function nodeType(node: YamlNode): string {
  return node.kind === 'map' ? 'object' : node.kind === 'seq' ? 'array' : scalarType(node);
}

/** Whether a value of `actual` type fits a schema `expected` type. */
function fits(expected: string, actual: string, schema: OpenApiSchema): boolean {
  if (actual === 'null' || expected === actual) return true;
  if (schema['x-kubernetes-int-or-string']) return actual === 'integer' || actual === 'string';
  if (expected === 'number') return actual === 'integer';
  return false;
}

function expectedType(schema: OpenApiSchema): string | undefined {
  if (schema['x-kubernetes-int-or-string']) return 'integer or string';
  return schema.type ?? (schema.properties ? 'object' : undefined);
}

interface Walk {
  all: KindSchemas;
  issues: SchemaIssue[];
}

/** Whether an object schema takes fields it does not list. */
function takesAnyField(schema: OpenApiSchema): boolean {
  return schema.additionalProperties === true || schema['x-kubernetes-preserve-unknown-fields'] === true || !schema.properties;
}

function checkMap(node: Extract<YamlNode, { kind: 'map' }>, schema: OpenApiSchema, walk: Walk, keyRange: { from: number; to: number }): void {
  const properties = schema.properties ?? {};
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const open = takesAnyField(schema);
  for (const entry of node.entries) {
    const inner = properties[entry.key] ?? extra;
    if (inner) {
      if (entry.value) check(entry.value, inner, walk, entry);
    } else if (!open) {
      walk.issues.push({ from: entry.from, to: entry.to, severity: 'warning', message: `unknown field "${entry.key}"` });
    }
  }
  checkRequired(node, schema, walk, keyRange);
}

function checkRequired(node: Extract<YamlNode, { kind: 'map' }>, schema: OpenApiSchema, walk: Walk, keyRange: { from: number; to: number }): void {
  const present = new Set(node.entries.map((entry) => entry.key));
  for (const name of schema.required ?? []) {
    if (!present.has(name)) walk.issues.push({ ...keyRange, severity: 'error', message: `missing required field "${name}"` });
  }
}

/** The issue of a value whose type or enum does not fit the schema, if any. */
function valueIssue(node: YamlNode, schema: OpenApiSchema): SchemaIssue | undefined {
  const expected = expectedType(schema);
  const actual = nodeType(node);
  if (expected && !fits(schema.type ?? expected, actual, schema)) {
    return { from: node.from, to: node.to, severity: 'error', message: `expected ${expected}, found ${actual}` };
  }
  if (node.kind === 'scalar' && schema.enum && !schema.enum.includes(node.value)) {
    return { from: node.from, to: node.to, severity: 'warning', message: `expected one of ${schema.enum.join(', ')}` };
  }
  return undefined;
}

function check(node: YamlNode, raw: OpenApiSchema, walk: Walk, keyRange: { from: number; to: number }): void {
  const schema = resolve(raw, walk.all);
  if (!schema) return;
  const issue = valueIssue(node, schema);
  if (issue) walk.issues.push(issue);
  if (issue?.severity === 'error') return;
  if (node.kind === 'map') checkMap(node, schema, walk, keyRange);
  if (node.kind === 'seq' && schema.items) for (const item of node.items) check(item, schema.items, walk, item);
}

/**
 * Checks a YAML value against the kind's OpenAPI schema: types (a quoted "3" where an integer
 * goes, a number where a string goes), required fields, enums, and unknown fields (warnings).
 */
export function checkAgainstSchema(document: YamlNode | undefined, all: KindSchemas): SchemaIssue[] {
  const walk: Walk = { all, issues: [] };
  const root = all.schemas[all.root];
  if (!document || !root) return walk.issues;
  check(document, root, walk, { from: document.from, to: Math.min(document.to, document.from + 1) });
  return walk.issues;
}

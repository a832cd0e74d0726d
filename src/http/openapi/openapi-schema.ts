import { z } from 'zod';

export type JsonObject = Record<string, unknown>;

/** Named schemas (zod `.meta({id})`) collected into `components.schemas` while converting. */
export class SchemaCollector {
  readonly components: Record<string, JsonObject> = {};

  /** The JSON Schema of a zod schema as a request or response carries it (input side of transforms). */
  convert(schema: z.ZodType): JsonObject {
    const converted = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
    const { $defs, ...rest } = converted;
    delete rest.$schema;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonObject>)) this.components[id] = relink(definition) as JsonObject;
    const id = z.globalRegistry.get(schema)?.id;
    const reference = { $ref: `#/components/schemas/${id}` };
    if (id) {
      // zod answers a named root either inline or as a reference to its own definition.
      const body = relink(rest) as JsonObject;
      if (body.$ref !== reference.$ref) this.components[id] = body;
      return reference;
    }
    return relink(rest) as JsonObject;
  }
}

/** Points `#/$defs/X` references at `#/components/schemas/X`. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, inner]) => {
    if (key === '$ref' && typeof inner === 'string') return [key, inner.replace('#/$defs/', '#/components/schemas/')];
    return [key, relink(inner)];
  });
  return Object.fromEntries(entries);
}

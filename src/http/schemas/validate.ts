import { z } from 'zod';
import { validation } from '../../errors.js';

/** Formats zod issues as `{field: message}` details. */
function issueDetails(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    // An unknown property is named itself, not the object around it.
    if (issue.code === 'unrecognized_keys') for (const name of issue.keys) fields[key ? `${key}.${name}` : name] ??= 'unknown field';
    else fields[key || '(body)'] ??= issue.message;
  }
  return fields;
}

/** Validates a value against a schema or throws VALIDATION_ERROR naming the fields. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown, what = 'request body'): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) {
    const fields = issueDetails(result.error);
    const summary = Object.entries(fields)
      .map(([key, message]) => `${key}: ${message}`)
      .join('; ');
    throw validation(`invalid ${what}: ${summary}`, { fields });
  }
  return result.data;
}

export { namespaceSchema, objectNameSchema } from '../../kube/cache/names.js';

/** Coerces query-string booleans (`true`/`false`/`1`/`0`). */
export const queryBoolean = z.enum(['true', 'false', '1', '0', '']).transform((value) => value === 'true' || value === '1');

/** Coerces a query-string integer. */
export const queryInteger = z
  .string()
  .regex(/^-?\d+$/, 'must be an integer')
  .transform(Number);

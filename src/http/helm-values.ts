import * as yaml from 'js-yaml';
import { z } from 'zod';
import { validation } from '../errors.js';

/** Values as YAML text, as the web UI's values editor sends them; used instead of `values` when present. */
export const valuesYamlSchema = z.string().max(1_000_000).optional();

/** The body with `valuesYaml` (when sent) parsed into `values`; a YAML error or a non-mapping is a VALIDATION_ERROR. */
export function withYamlValues<T extends { values: Record<string, unknown>; valuesYaml?: string }>(body: T): T {
  if (body.valuesYaml === undefined) return body;
  let parsed: unknown;
  try {
    parsed = yaml.load(body.valuesYaml, { schema: yaml.CORE_SCHEMA }) ?? {};
  } catch (error) {
    const reason = error instanceof yaml.YAMLException ? error.reason : 'unreadable';
    throw validation(`values are not valid YAML: ${reason}`, { fields: { valuesYaml: reason } });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw validation('values must be a YAML mapping (key: value)', { fields: { valuesYaml: 'must be a mapping' } });
  }
  return { ...body, values: parsed as Record<string, unknown> };
}

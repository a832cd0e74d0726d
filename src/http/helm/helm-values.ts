import * as yaml from 'js-yaml';
import { z } from 'zod';
import { validation } from '../../errors.js';
import { assertBodyShape, maxBodyDepth, maxYamlAliases } from '../pipeline/yaml-body.js';

/** Values as YAML text, as the web UI's values editor sends them; used instead of `values` when present. */
export const valuesYamlSchema = z.string().max(1_000_000).optional();

/** The most bytes the parsed values may take once aliases are expanded (as their JSON). */
const valuesYamlLimit = 1_000_000;

/** The body with `valuesYaml` (when sent) parsed into `values`; a YAML error or a non-mapping is a VALIDATION_ERROR. */
export function withYamlValues<T extends { values: Record<string, unknown>; valuesYaml?: string }>(body: T): T {
  if (body.valuesYaml === undefined) return body;
  let parsed: unknown;
  try {
    // The same alias and depth limits as YAML request bodies: a short alias bomb never expands.
    parsed = yaml.load(body.valuesYaml, { schema: yaml.CORE_SCHEMA, maxAliases: maxYamlAliases, maxDepth: maxBodyDepth }) ?? {};
  } catch (error) {
    const reason = error instanceof yaml.YAMLException ? error.reason : 'unreadable';
    throw validation(`values are not valid YAML: ${reason}`, { fields: { valuesYaml: reason } });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw validation('values must be a YAML mapping (key: value)', { fields: { valuesYaml: 'must be a mapping' } });
  }
  assertBodyShape(parsed, valuesYamlLimit);
  return { ...body, values: parsed as Record<string, unknown> };
}

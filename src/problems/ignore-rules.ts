import type { ProblemsConfig } from '../config/problems-schema.js';
import type { KubeThing } from './shapes.js';

/** The annotation that hides an object's findings; its (non-empty) value is shown as the reason. */
export const ignoreAnnotation = 'pilothouse.dev/ignore-problems';

/** Why an object's findings are ignored (the annotation's value, or the config rule), or undefined when they are not. */
export function ignoredBecause(object: KubeThing, rules: ProblemsConfig['ignore']): string | undefined {
  const annotation = object.metadata?.annotations?.[ignoreAnnotation];
  if (annotation) return annotation;
  const namespace = object.metadata?.namespace;
  const labels = object.metadata?.labels ?? {};
  const index = rules.findIndex((rule) => {
    const inNamespace = rule.namespaces === undefined || (namespace !== undefined && rule.namespaces.includes(namespace));
    const selected = rule.selector === undefined || Object.entries(rule.selector).every(([key, value]) => labels[key] === value);
    return inNamespace && selected;
  });
  return index >= 0 ? `problems.ignore[${index}]` : undefined;
}

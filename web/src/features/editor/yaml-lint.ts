import type { Diagnostic } from '@codemirror/lint';
import { checkAgainstSchema, type KindSchemas } from './schema-check';
import { documentOf, parseYaml, syntaxProblems } from './yaml-tree';

/** Messages of the linter, translated by the caller. */
export interface LintMessages {
  syntax: string;
}

/** Diagnostics of a YAML text: syntax errors first; when it parses, the kind's OpenAPI schema checks. */
export function lintYaml(text: string, schemas: KindSchemas | undefined, messages: LintMessages): Diagnostic[] {
  const tree = parseYaml(text);
  const problems = syntaxProblems(tree);
  const length = text.length;
  if (problems.length > 0) {
    return problems.map((problem) => ({
      from: Math.min(problem.from, length),
      to: Math.min(problem.to, length),
      severity: 'error' as const,
      message: messages.syntax,
      source: 'YAML',
    }));
  }
  if (!schemas) return [];
  return checkAgainstSchema(documentOf(tree, text), schemas).map((issue) => ({ ...issue, source: 'OpenAPI' }));
}

import { describe, expect, it } from 'vitest';
import { checkAgainstSchema, type KindSchemas } from './schema-check';
import { documentOf, parseYaml, syntaxProblems } from './yaml-tree';

const schemas: KindSchemas = {
  root: 'Deployment',
  schemas: {
    Deployment: {
      type: 'object',
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { allOf: [{ $ref: '#/components/schemas/ObjectMeta' }] },
        spec: { $ref: '#/components/schemas/DeploymentSpec' },
      },
    },
    ObjectMeta: { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
    DeploymentSpec: {
      type: 'object',
      required: ['selector'],
      properties: {
        replicas: { type: 'integer' },
        selector: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        strategy: { type: 'object', properties: { maxSurge: { 'x-kubernetes-int-or-string': true } } },
        containers: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    },
  },
};

function issuesOf(text: string): string[] {
  return checkAgainstSchema(documentOf(parseYaml(text), text), schemas).map((issue) => `${text.slice(issue.from, issue.to)}: ${issue.message}`);
}

describe('schema check of the YAML editor', () => {
  it('accepts a valid object', () => {
    expect(
      issuesOf(
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {app: web}\nspec:\n  replicas: 2\n  selector: {x: 1}\n  strategy: {maxSurge: 25%}\n',
      ),
    ).toEqual([]);
  });

  it('names wrong types, unknown fields and missing required fields', () => {
    const issues = issuesOf(
      'kind: Deployment\nmetadata:\n  name: web\n  labels: {version: 2}\nspec:\n  replicas: "two"\n  replica: 3\n  containers:\n  - name: 5\n',
    );
    expect(issues).toContain('2: expected string, found integer');
    expect(issues).toContain('"two": expected integer, found string');
    expect(issues).toContain('replica: unknown field "replica"');
    expect(issues).toContain('5: expected string, found integer');
    expect(issues).toContain('spec: missing required field "selector"');
  });

  it('finds syntax errors', () => {
    expect(syntaxProblems(parseYaml('a: [b\n')).length).toBeGreaterThan(0);
    expect(syntaxProblems(parseYaml('a: b\n'))).toEqual([]);
  });
});

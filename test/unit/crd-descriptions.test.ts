import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { rootDirectory } from '../helpers/paths.js';

interface SchemaNode {
  description?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
}

/** Paths of the fields below `node` without a description (what `kubectl explain` would show as `<empty>`). */
function undescribed(node: SchemaNode, path: string): string[] {
  const fields = Object.entries(node.properties ?? {}).filter(([name]) => !(path === '' && name === 'metadata'));
  const missing = fields.flatMap(([name, child]) => [...(child.description ? [] : [`${path}.${name}`]), ...undescribed(child, `${path}.${name}`)]);
  if (node.items) missing.push(...(node.items.properties ? undescribed(node.items, `${path}[]`) : []));
  if (typeof node.additionalProperties === 'object') missing.push(...undescribed(node.additionalProperties, `${path}{}`));
  return missing;
}

describe('the CRDs in crds/ (and their copies in charts/pilothouse/crds/)', () => {
  const files = readdirSync(join(rootDirectory, 'crds')).filter((file) => file.endsWith('.yaml'));

  it('describe every field, for kubectl explain', () => {
    for (const file of files) {
      const document = yaml.load(readFileSync(join(rootDirectory, 'crds', file), 'utf8')) as {
        spec: { versions: { name: string; schema: { openAPIV3Schema: SchemaNode } }[] };
      };
      for (const version of document.spec.versions) {
        expect(undescribed(version.schema.openAPIV3Schema, ''), `${file} ${version.name}`).toEqual([]);
      }
    }
  });

  it('are the same files in the chart', () => {
    for (const file of files) {
      expect(readFileSync(join(rootDirectory, 'charts/pilothouse/crds', file), 'utf8'), file).toBe(readFileSync(join(rootDirectory, 'crds', file), 'utf8'));
    }
  });

  it('print the cluster and the namespaces from the status the controllers write, and refuse permission delete', () => {
    const columns = (file: string): Record<string, string> => {
      const document = yaml.load(readFileSync(join(rootDirectory, 'crds', file), 'utf8')) as {
        spec: { versions: { additionalPrinterColumns: { name: string; jsonPath: string }[] }[] };
      };
      return Object.fromEntries((document.spec.versions[0]?.additionalPrinterColumns ?? []).map((column) => [column.name, column.jsonPath]));
    };
    expect(columns('accessrequests.yaml')).toMatchObject({ Cluster: '.status.cluster', Namespaces: '.status.namespaces' });
    expect(columns('reports.yaml')).toMatchObject({ Cluster: '.status.cluster' });
    expect(readFileSync(join(rootDirectory, 'crds/accessrequests.yaml'), 'utf8')).toMatch(/enum: \[execute_write\]\n/);
  });
});

import * as yaml from 'js-yaml';
import { secretKindOf, secretKinds } from './secret-kinds.js';
import { seesEverything, type SecretVisibility } from './secret-visibility.js';
import type { KubeObject } from '../kube/objects/resources.js';

export { secretKindOf } from './secret-kinds.js';

/** What a masked value reads as. */
export const maskedValue = '******';
export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

function maskValues(values: unknown): unknown {
  if (!values || typeof values !== 'object') return values;
  return Object.fromEntries(Object.keys(values).map((key) => [key, maskedValue]));
}

function withoutLastApplied(metadata: KubeObject['metadata']): KubeObject['metadata'] {
  const annotations = metadata?.annotations as Record<string, string> | undefined;
  if (!metadata || !annotations || !(lastAppliedAnnotation in annotations)) return metadata;
  const rest = { ...annotations };
  delete rest[lastAppliedAnnotation];
  return { ...metadata, annotations: rest };
}

/**
 * An object as a caller may see it: for Secrets `data`/`stringData` values and for MCPServers
 * `spec.env` values masked unless `visibility.values` shows that kind; their last-applied annotation dropped unless
 * `visibility.lastApplied`. Other kinds unchanged.
 */
export function maskObject(object: KubeObject, visibility: SecretVisibility): KubeObject {
  const kind = secretKindOf(object);
  if (!kind) return object;
  let shown: KubeObject = visibility.lastApplied ? object : { ...object, metadata: withoutLastApplied(object.metadata) };
  if (visibility.values[kind]) return shown;
  if (kind === 'Secret')
    shown = { ...shown, data: maskValues(shown.data) as KubeObject['data'], stringData: maskValues(shown.stringData) as KubeObject['stringData'] };
  else if (shown.spec && typeof shown.spec === 'object')
    shown = { ...shown, spec: { ...(shown.spec as object), env: maskValues((shown.spec as { env?: unknown }).env) } };
  return shown;
}

/** A manifest document's `kind:` line naming a secret-carrying kind. */
const secretKindLine = new RegExp(`^kind:\\s*["']?(${secretKinds.map((entry) => entry.kind).join('|')})["']?\\s*$`, 'm');

/** Masks one manifest document when it is a secret-carrying kind (its `# Source:` comments kept). */
function maskDocument(document: string, visibility: SecretVisibility): string {
  if (!secretKindLine.test(document)) return document;
  let parsed: unknown;
  try {
    parsed = yaml.load(document);
  } catch {
    return '\n# (a Secret that could not be parsed: hidden)\n';
  }
  if (!parsed || typeof parsed !== 'object') return document;
  const masked = maskObject(parsed as KubeObject, visibility);
  if (masked === parsed) return document;
  const comments = document
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .join('\n');
  return `\n${comments ? `${comments}\n` : ''}${yaml.dump(masked, { noRefs: true, lineWidth: -1 })}`;
}

/** A multi-document YAML text (a helm release manifest) with every secret-carrying document masked. */
export function maskManifest(manifest: string, visibility: SecretVisibility): string {
  if (seesEverything(visibility)) return manifest;
  return manifest
    .split(/^---[ \t]*$/m)
    .map((document) => maskDocument(document, visibility))
    .join('---');
}

/**
 * `kubectl describe` text as a caller may see it. kubectl prints Secret values as sizes and never
 * prints the last-applied annotation; it prints an MCPServer's `Env:` block in full, so its values
 * are masked here unless `visibility.values` shows MCPServers.
 */
export function maskDescribe(text: string, kind: string, visibility: SecretVisibility): string {
  if (visibility.values.MCPServer || kind !== 'MCPServer') return text;
  let envIndent = -1;
  let entryIndent = -1;
  return text
    .split('\n')
    .flatMap((line) => {
      const indent = line.length - line.trimStart().length;
      if (envIndent >= 0 && line.trim() !== '' && indent <= envIndent) envIndent = -1;
      if (envIndent < 0) {
        if (/^\s*Env:\s*$/.test(line)) [envIndent, entryIndent] = [indent, -1];
        return [line];
      }
      if (entryIndent < 0) entryIndent = indent;
      // Lines deeper than the entries continue a multi-line value: dropped.
      if (indent > entryIndent) return [];
      return [line.replace(/^(\s*[^:\s][^:]*:)(\s.*)?$/, `$1  ${maskedValue}`)];
    })
    .join('\n');
}

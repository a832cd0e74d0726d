import * as yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { maskDescribe, maskManifest, maskObject } from './secret-masking.js';
import { secretVisibility } from './secret-visibility.js';

const viewer = secretVisibility({ username: 'v', role: 'viewer', roles: [] });
const user = secretVisibility({ username: 'u', role: 'user', roles: [] });
const admin = secretVisibility({ username: 'a', role: 'admin', roles: [] });
const maskManifestSecrets = (text: string): string => maskManifest(text, viewer);

const manifest = `---
# Source: demo/templates/secret.yaml
apiVersion: v1
kind: Secret
metadata:
  name: demo-credentials
stringData:
  password: hunter2
data:
  token: c2VjcmV0
---
# Source: demo/templates/configmap.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: demo-settings
data:
  greeting: hello
`;

describe('helm manifest for viewers', () => {
  it('masks every Secret value and leaves other documents as rendered', () => {
    const masked = maskManifestSecrets(manifest);
    expect(masked).not.toMatch(/hunter2|c2VjcmV0/);
    expect(masked).toContain('# Source: demo/templates/secret.yaml');
    expect(masked).toContain('# Source: demo/templates/configmap.yaml\napiVersion: v1\nkind: ConfigMap');
    const documents = yaml.loadAll(masked).filter(Boolean) as { kind: string; data: Record<string, string>; stringData?: Record<string, string> }[];
    expect(documents.map((document) => document.kind)).toEqual(['Secret', 'ConfigMap']);
    expect(documents[0]).toMatchObject({ data: { token: '******' }, stringData: { password: '******' } });
    expect(documents[1]?.data).toEqual({ greeting: 'hello' });
  });

  it('returns a manifest without Secrets unchanged', () => {
    const plain = manifest.split('---').slice(2).join('---');
    expect(maskManifestSecrets(`---${plain}`)).toBe(`---${plain}`);
  });
});

describe('secret masking', () => {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"stringData":{"password":"hunter2"}}', keep: 'me' } },
    data: { token: 'c2VjcmV0' },
  };

  it('masks Secret values for viewers and drops last-applied for everyone but admins', () => {
    expect(JSON.stringify(maskObject(secret, viewer))).not.toMatch(/hunter2|c2VjcmV0/);
    expect(maskObject(secret, viewer).metadata?.annotations).toEqual({ keep: 'me' });
    const forUser = maskObject(secret, user);
    expect(forUser.data).toEqual({ token: 'c2VjcmV0' });
    expect(JSON.stringify(forUser)).not.toContain('hunter2');
    expect(maskObject(secret, admin)).toBe(secret);
  });

  it('masks MCPServer env for every role but admin and leaves other kinds alone', () => {
    const server = { apiVersion: 'pilothouse.dev/v1alpha1', kind: 'MCPServer', metadata: { name: 'm' }, spec: { command: 'npx', env: { API_TOKEN: 'tok' } } };
    expect(maskObject(server, viewer).spec).toEqual({ command: 'npx', env: { API_TOKEN: '******' } });
    expect(maskObject(server, user).spec).toEqual({ command: 'npx', env: { API_TOKEN: '******' } });
    expect(maskObject(server, admin)).toBe(server);
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
    expect(maskObject(configMap, viewer)).toBe(configMap);
  });

  it('masks the Env block of an MCPServer describe text, multi-line values included', () => {
    const text =
      'Name: m\nSpec:\n  Command:  npx\n  Env:\n    API_TOKEN:  tok-1\n    MULTI:  line one\n      line two\n    EMPTY:\n  Enabled:  true\nEvents: <none>';
    const masked = maskDescribe(text, 'MCPServer', viewer);
    expect(masked).not.toMatch(/tok-1|line one|line two/);
    expect(masked).toContain('    API_TOKEN:  ******');
    expect(masked).toContain('  Enabled:  true');
    expect(maskDescribe(text, 'MCPServer', user)).not.toContain('tok-1');
    expect(maskDescribe(text, 'MCPServer', admin)).toBe(text);
  });
});

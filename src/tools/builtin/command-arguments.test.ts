import { describe, expect, it } from 'vitest';
import { splitArguments } from './command-arguments.js';

describe('splitArguments', () => {
  it.each([
    ['get pods -n kube-system', ['get', 'pods', '-n', 'kube-system']],
    [`get pods -l 'app in (a,b)'`, ['get', 'pods', '-l', 'app in (a,b)']],
    [`patch deploy web -p '{"spec":{"replicas":2}}'`, ['patch', 'deploy', 'web', '-p', '{"spec":{"replicas":2}}']],
    ['get pods -o "jsonpath={.items[*].metadata.name}"', ['get', 'pods', '-o', 'jsonpath={.items[*].metadata.name}']],
    ['get \\\n pods', ['get', 'pods']],
    ['get pod\\ x', ['get', 'pod x']],
    ['get pods *', ['get', 'pods', '*']],
    ['', []],
  ])('splits %j', (text, argv) => {
    expect(splitArguments(text)).toEqual({ ok: true, argv });
  });

  it.each([
    'get pods | grep x',
    'get pods; delete pod x',
    'get pods && delete pod x',
    'get pods > out.txt',
    'get pods $(echo x)',
    'get pods `id`',
    'get pods -n $NS',
    'get pods &',
    'FOO=1 get pods',
    '(get pods)',
    'get pods <(x)',
  ])('refuses shell syntax in %j', (text) => {
    const result = splitArguments(text);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toMatch(/bash tool/);
  });

  it('refuses unbalanced quotes', () => {
    expect(splitArguments('get "pods')).toEqual({ ok: false, error: expect.stringMatching(/could not parse/) });
  });
});

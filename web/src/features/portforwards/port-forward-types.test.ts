import { describe, expect, it } from 'vitest';
import { podPorts, selectorOf, servicePorts } from './port-forward-types';

describe('port forward ports', () => {
  it('reads container ports of a pod and target ports of a service', () => {
    expect(podPorts({ spec: { containers: [{ ports: [{ containerPort: 8080, name: 'http' }] }, {}] } })).toEqual([{ port: 8080, name: 'http' }]);
    expect(
      servicePorts({
        spec: {
          ports: [
            { port: 80, targetPort: 8080 },
            { port: 443, targetPort: 'https', name: 'tls' },
          ],
        },
      }),
    ).toEqual([
      { port: 8080, name: undefined },
      { port: 443, name: 'tls' },
    ]);
    expect(selectorOf({ spec: { selector: { app: 'web', tier: 'front' } } })).toBe('app=web,tier=front');
    expect(selectorOf({ spec: {} })).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { addressOf, podPorts, selectorOf, servicePorts, targetOf } from './port-forward-types';

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

  it('names a forward by its Service when it has one, else by its pod, and its local address', () => {
    expect(targetOf({ namespace: 'shop', pod: 'api-7d9f-x', podPort: 8080, service: 'api' })).toBe('shop/service/api:8080');
    expect(targetOf({ namespace: 'shop', pod: 'api-7d9f-x', podPort: 8080, service: null })).toBe('shop/api-7d9f-x:8080');
    expect(addressOf({ address: '127.0.0.1:40000', localPort: 40000 })).toBe('127.0.0.1:40000');
    expect(addressOf({ address: null, localPort: 40001 })).toBe('127.0.0.1:40001');
    expect(addressOf({ address: null, localPort: 0 })).toBeUndefined();
  });
});

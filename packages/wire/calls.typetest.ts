// Type-level test of the typed calls (checked by `tsc -p tsconfig.json`, never run): the method and the path
// template pick the parameters, the query, the body and the answer; each `@ts-expect-error` below is a wrong
// pairing that must not compile (tsc fails when one of them compiles after all).
import type { TypedCalls } from './calls.ts';
import type { components } from './types.ts';

type Schemas = components['schemas'];

export async function typedCallsCompile(client: TypedCalls): Promise<void> {
  const health: Schemas['Health'] = await client.call('GET', '/api/health');
  const requests: Schemas['AccessRequestItems'] = await client.call('GET', '/api/access-requests', { query: { phase: 'Pending' } });
  const one: Schemas['AccessRequest'] = await client.call('GET', '/api/access-requests/{id}', { path: { id: 'abc' } });
  const filed: Schemas['AccessRequest'] = await client.call('POST', '/api/access-requests', { body: { permission: 'execute_write', ttl: '1h' } });
  const audit: Schemas['AuditEntryList'] = await client.call('GET', '/api/audit', { query: { limit: 50, offset: 0 } });
  const history: Schemas['HistoryAnswer'] = await client.call('GET', '/api/metrics/history', { query: { kind: 'node', name: 'node-1' } });
  void [health, requests, one, filed, audit, history];

  // @ts-expect-error a path the contract does not have
  await client.call('GET', '/api/no-such-path');
  // @ts-expect-error a method the path does not answer (no DELETE /api/health)
  await client.call('DELETE', '/api/health');
  // @ts-expect-error the path parameter `id` is missing
  await client.call('GET', '/api/access-requests/{id}');
  // @ts-expect-error a path parameter of another path
  await client.call('GET', '/api/access-requests/{id}', { path: { name: 'abc' } });
  // @ts-expect-error the request body is required
  await client.call('POST', '/api/access-requests');
  // @ts-expect-error a body of the wrong shape (`ttl` is a string)
  await client.call('POST', '/api/access-requests', { body: { permission: 'execute_write', ttl: 60 } });
  // @ts-expect-error GET takes no body
  await client.call('GET', '/api/health', { body: {} });
  // @ts-expect-error the query of GET /api/metrics/history is required (kind and name)
  await client.call('GET', '/api/metrics/history');
  // @ts-expect-error GET /api/health takes no query
  await client.call('GET', '/api/health', { query: { cluster: 'x' } });
  // @ts-expect-error a query key the operation does not declare
  await client.call('GET', '/api/access-requests', { query: { colour: 'red' } });
  // @ts-expect-error a query value the operation does not allow
  await client.call('GET', '/api/access-requests', { query: { phase: 'Sleeping' } });
  // @ts-expect-error the answer of GET /api/health is not a list of access requests
  const wrong: Schemas['AccessRequestItems'] = await client.call('GET', '/api/health');
  void wrong;
}

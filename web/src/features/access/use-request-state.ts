import { useEffect, useState } from 'react';
import type { AccessRequest } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';

/** How often a Pending request is read again. */
const pollMs = 5_000;

/** A filed access request, read again (GET /api/access-requests/{id}) until it leaves Pending. */
export function useRequestState(filed: AccessRequest): AccessRequest {
  const client = useApi();
  const [request, setRequest] = useState(filed);
  const pending = request.phase === 'Pending';
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setInterval(() => {
      client.call('GET', '/api/access-requests/{id}', { path: { id: filed.id } }).then(setRequest, () => undefined);
    }, pollMs);
    return () => clearInterval(timer);
  }, [client, filed.id, pending]);
  return request;
}

import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../shared/api-context';
import type { KindSchemas } from './schema-check';

/** The kind's OpenAPI schema (`GET /api/schemas/{resource}`); undefined while loading or when the cluster has none (syntax checks still run). */
export function useKindSchema(resource: string): KindSchemas | undefined {
  const client = useApi();
  const schema = useQuery({
    queryKey: ['schema', resource],
    staleTime: 10 * 60_000,
    queryFn: ({ signal }) => client.call('GET', '/api/schemas/{resource}', { path: { resource }, signal }),
  });
  return schema.data;
}

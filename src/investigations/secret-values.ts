import { AppError } from '../errors.js';
import type { RestClient } from '../kube/rest-client.js';

/** Reads one key of a Secret in a namespace, as the service; undefined when the Secret or the key is missing. */
export async function readSecretKey(rest: RestClient, namespace: string, reference: { name: string; key: string }): Promise<string | undefined> {
  try {
    const secret = await rest.json<{ data?: Record<string, string> }>(
      'GET',
      `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(reference.name)}`,
      {
        target: `secrets/${reference.name}`,
      },
    );
    const value = secret.data?.[reference.key];
    return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8').trim();
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
    throw error;
  }
}

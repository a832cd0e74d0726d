import type { Response } from 'undici';
import { AppError, notFound } from '../../errors.js';
import type { KubeIdentityClient } from '../clients.js';
import { streamLines } from '../watch-stream.js';
import { getPod, podPath, resolveContainer } from './pod-target.js';

export interface LogOptions {
  namespace: string;
  pod: string;
  container?: string;
  tail: number;
  follow: boolean;
  previous: boolean;
  sinceSeconds?: number;
  timestamps: boolean;
}

/** An open log stream from the API server (never buffered whole). */
export interface LogStream {
  container: string;
  response: Response;
}

/**
 * Opens a pod container's log with the caller's identity. `previous` without a previous
 * container is a 404 (the kubelet answers 400 "previous terminated container ... not found").
 */
export async function openLogStream(client: KubeIdentityClient, options: LogOptions, signal: AbortSignal): Promise<LogStream> {
  const pod = await getPod(client, options.namespace, options.pod);
  const container = resolveContainer(pod, options.container);
  const query = {
    container,
    tailLines: options.tail >= 0 ? options.tail : undefined,
    follow: options.follow || undefined,
    previous: options.previous || undefined,
    sinceSeconds: options.sinceSeconds,
    timestamps: options.timestamps || undefined,
  };
  try {
    const response = await client.rest.raw('GET', `${podPath(options.namespace, options.pod)}/log`, {
      query,
      accept: '*/*',
      signal,
      target: `pods/${options.pod}`,
    });
    return { container, response };
  } catch (error) {
    if (options.previous && error instanceof AppError && error.code !== 'FORBIDDEN') {
      throw notFound(`no previous log for container "${container}" of pod ${options.pod}`, { container, cluster: error.details });
    }
    throw error;
  }
}

/** The longest line kept in memory: a container printing without newlines is cut into pieces this long. */
export const maxLogLineLength = 64 * 1024;

/** Yields complete lines (without the newline) from a streamed body as they arrive; over-long lines in pieces. */
export function logLines(response: Pick<Response, 'body'>): AsyncGenerator<string> {
  return streamLines(response, maxLogLineLength);
}

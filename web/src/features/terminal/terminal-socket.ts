import type { TerminalTicket as WireTerminalTicket } from '@pilothouse/wire/types';
import type { ApiClient } from '../../api/client';
import type { ResourceTarget } from '../../shared/resource-target';

/** A frame of the terminal WebSocket (`pilothouse.terminal.v1`): output, error or exit from the pod. */
export interface TerminalFrame {
  type: 'output' | 'error' | 'exit';
  data?: string;
  message?: string;
  code?: number | null;
}

/** What the socket's URL carries besides the pod: the issued ticket (the wire's TerminalTicket) and the cluster, when one is named. */
export type TerminalTicket = Pick<WireTerminalTicket, 'ticket' | 'container'> & { cluster?: string };

/** The WebSocket URL of a pod's terminal, on the page's own host (`ws:` or `wss:`). */
export function terminalUrl(location: { protocol: string; host: string }, target: ResourceTarget, { ticket, container, cluster }: TerminalTicket): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = new URLSearchParams({ namespace: target.namespace ?? 'default', ticket, container });
  if (cluster) query.set('cluster', cluster);
  return `${scheme}//${location.host}/api/pods/${encodeURIComponent(target.name)}/terminal?${query.toString()}`;
}

/**
 * Opens the pod's terminal socket: a one-time ticket first (a browser cannot send the bearer token
 * on a WebSocket, and the token must never be in a URL), then the socket with the ticket.
 */
export async function openTerminalSocket(client: ApiClient, target: ResourceTarget): Promise<WebSocket> {
  const issued = await client.call('POST', '/api/pods/{name}/terminal/ticket', {
    path: { name: target.name },
    body: { namespace: target.namespace ?? 'default' },
  });
  return new WebSocket(terminalUrl(window.location, target, { ...issued, cluster: client.cluster }), ['pilothouse.terminal.v1']);
}

import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import type { Dispatcher } from 'undici';

/** A cluster identity to impersonate: a user name and, for SSO users as themselves, their groups. */
export interface ClusterIdentity {
  user: string;
  groups: readonly string[];
}

/** An identity as callers name it: a user name alone, or a user with groups. */
export type IdentityRef = string | ClusterIdentity;

export function clusterIdentity(identity: IdentityRef): ClusterIdentity {
  return typeof identity === 'string' ? { user: identity, groups: [] } : identity;
}

const groupHeader = 'Impersonate-Group';
/** fetch joins repeated header values with commas; groups travel in this private header to the dispatcher instead. */
const groupCarrier = 'x-pilothouse-impersonate-groups';

/**
 * A kubeconfig that impersonates groups besides its user (`Impersonate-Group`, one header line per
 * group, which the API server requires: it does not split commas). Node's http and ws send array
 * header values as separate lines; the REST client's fetch goes through `expandImpersonatedGroups`.
 */
export class GroupImpersonatingKubeConfig extends KubeConfig {
  constructor(private readonly groups: readonly string[]) {
    super();
  }

  override async applyToHTTPSOptions(opts: Parameters<KubeConfig['applyToHTTPSOptions']>[0]): Promise<void> {
    await super.applyToHTTPSOptions(opts);
    if (this.groups.length === 0) return;
    const target = opts as { headers?: Record<string, string | string[]> };
    target.headers = { ...target.headers, [groupHeader]: [...this.groups] };
  }
}

/** Moves array-valued `Impersonate-Group` headers into the carrier header fetch can hold. */
export function carryGroups(headers: Record<string, string | string[]>): Record<string, string> {
  const { [groupHeader]: groups, ...rest } = headers;
  const flat = rest as Record<string, string>;
  if (Array.isArray(groups)) flat[groupCarrier] = JSON.stringify(groups);
  else if (typeof groups === 'string') flat[groupHeader] = groups;
  return flat;
}

/** Dispatcher interceptor: turns the carrier header back into one `Impersonate-Group` line per group. */
export function expandImpersonatedGroups(dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch {
  return (options, handler) => {
    const headers = options.headers as Record<string, string | string[]> | undefined;
    if (!headers || Array.isArray(headers)) return dispatch(options, handler);
    const key = Object.keys(headers).find((name) => name.toLowerCase() === groupCarrier);
    if (!key) return dispatch(options, handler);
    const { [key]: carried, ...rest } = headers;
    const groups = JSON.parse(String(carried)) as string[];
    return dispatch({ ...options, headers: { ...rest, [groupHeader]: groups } }, handler);
  };
}

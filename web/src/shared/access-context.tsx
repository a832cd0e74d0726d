import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { ApiError } from '@pilothouse/wire/wire-client';

/** What the user is looking at, used to prefill an access request: namespace and resource kind. */
export interface AccessScope {
  namespace?: string;
  resource?: string;
}

const ScopeContext = createContext<AccessScope>({});

/** Narrows the access scope for the subtree (fields left undefined keep the outer value). */
export function AccessScopeProvider({ namespace, resource, children }: AccessScope & { children: ReactNode }): ReactNode {
  const outer = useContext(ScopeContext);
  const value = useMemo(() => ({ namespace: namespace ?? outer.namespace, resource: resource ?? outer.resource }), [namespace, resource, outer]);
  return <ScopeContext.Provider value={value}>{children}</ScopeContext.Provider>;
}

export function useAccessScope(): AccessScope {
  return useContext(ScopeContext);
}

/** Renders an action under an approval_required error (the app plugs in "Request access"). */
export type ApprovalAction = (error: ApiError) => ReactNode;

const ApprovalActionContext = createContext<ApprovalAction | null>(null);

export function ApprovalActionProvider({ action, children }: { action: ApprovalAction | null; children: ReactNode }): ReactNode {
  return <ApprovalActionContext.Provider value={action}>{children}</ApprovalActionContext.Provider>;
}

export function useApprovalAction(): ApprovalAction | null {
  return useContext(ApprovalActionContext);
}

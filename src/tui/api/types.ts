import type { components } from '@pilothouse/wire/types';

/** The terminal UI's names for the wire shapes, all generated from the OpenAPI document (wire-types.ts). */
type Schemas = components['schemas'];

/** A resource kind as GET /api/k8s lists it. */
export type ResourceKind = Schemas['ResourceTypeItem'];

/** A row of a list: name, namespace, age, and the kind's own columns. */
export type Row = Schemas['ResourceItem'];

/** GET /api/auth/me. */
export type Me = Schemas['Me'];

/** GET /api/health. */
export type Health = Schemas['Health'];

/** An access request as the API shows it. */
export type AccessRequest = Schemas['AccessRequest'];

/** A row of GET /api/helm/releases. */
export type HelmRelease = Schemas['HelmRelease'];

/** The object a row stands for (the terminal UI's own state, not a wire shape). */
export interface Target {
  resource: string;
  name: string;
  namespace?: string;
}

/** One cluster of GET /api/clusters (ADR 0035): name, source, reachability, version or error, the caller's access. */
export type ClusterSummary = Schemas['ClusterSummary'];

/** GET /api/clusters: the home cluster's name and every cluster, the home cluster first. */
export type ClusterList = Schemas['ClusterList'];

import { z } from 'zod';
import { role } from './api-schemas.js';
import { severityCounts } from './problem-schemas.js';

/** The `?cluster=NAME` query parameter of every cluster-facing route (ADR 0035); absent: the home cluster. */
export const clusterParameter = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS-1123 label')
  .max(63)
  .meta({ id: 'ClusterName', description: 'The cluster the request is about (GET /api/clusters); absent: the home cluster.' });

/** What the caller may do on one cluster. */
export const clusterAccess = z
  .object({
    role,
    /** The resource-level roles (`authorization.roles`) that hold on this cluster for the caller. */
    roles: z.array(z.string()),
    /** Whether the caller may change anything on this cluster (a write of some kind is allowed somewhere). */
    write: z.boolean(),
  })
  .meta({ id: 'ClusterAccess' });

/** A cluster's history (issue 36): a Prometheus configured (`config`), detected, or none, with the reason it is unavailable. */
export const historyStatus = z
  .object({
    available: z.boolean(),
    source: z.enum(['config', 'detected', 'none']),
    /** Where Prometheus is (an origin, or `service namespace/name:port` through the API server's proxy). */
    where: z.string().optional(),
    reason: z.string().optional(),
  })
  .meta({ id: 'HistoryStatus' });

/** One cluster of GET /api/clusters. */
export const clusterSummary = z
  .object({
    name: z.string(),
    source: z.enum(['home', 'config', 'secret']),
    reachable: z.boolean(),
    /** The API server's gitVersion (when it was reached). */
    version: z.string().optional(),
    /** Why the cluster is unreachable (no credentials or addresses beyond the server's host). */
    error: z.string().optional(),
    /** When reachability was last checked (RFC 3339). */
    checkedAt: z.string().optional(),
    access: clusterAccess,
    /** Admins only: labelled cluster Secrets that name this cluster but do not register it, and why (its holder keeps it). */
    refusedSecrets: z.array(z.object({ secret: z.string(), reason: z.string() }).meta({ id: 'RefusedClusterSecret' })).optional(),
    /** Whether usage history and PromQL are available on this cluster (a Prometheus found or configured), and why not. */
    history: historyStatus.optional(),
    /** The cluster's findings the caller may see, by severity (GET /api/problems); absent until its first analysis is done. */
    problems: severityCounts.optional(),
  })
  .meta({ id: 'ClusterSummary' });

/** GET /api/clusters: the home cluster's name and every cluster, the home cluster first. */
export const clusterList = z.object({ home: z.string(), items: z.array(clusterSummary) }).meta({ id: 'ClusterList' });
export type ClusterSummaryView = z.infer<typeof clusterSummary>;

/**
 * `?cluster=NAME` of the lists that show every cluster's objects (port forwards, reports): keeps one cluster's.
 * Any DNS-1123 label, not only today's clusters, so the objects of a removed cluster stay findable.
 */
export const clusterFilterQuery = z.object({
  cluster: z
    .string()
    .max(63)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS-1123 label')
    .optional(),
});

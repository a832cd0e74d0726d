import { z } from 'zod';
import { durationSchema } from './duration.js';

/** A key of a Secret (in `kubernetes.namespace` unless `namespace` says otherwise), read with the service's own identity. */
const secretKeySchema = z.object({ name: z.string().min(1), key: z.string().min(1), namespace: z.string().min(1).optional() });

/** A credential read from a file (re-read on every request, so rotation needs no restart) or a Secret key. */
const credentialSchema = z
  .object({ file: z.string().min(1).optional(), secret: secretKeySchema.optional() })
  .refine((source) => (source.file === undefined) !== (source.secret === undefined), { message: 'name exactly one of file or secret' });

/** How Pilothouse authenticates to Prometheus when it reaches it at `url` (the API server's service proxy takes no credentials of ours). */
const prometheusAuthSchema = z
  .object({
    bearer: credentialSchema.optional(),
    basic: z.object({ username: z.string().min(1), password: credentialSchema }).optional(),
    /** A CA bundle (PEM file) for an https `url`. */
    ca_file: z.string().min(1).optional(),
  })
  .refine((auth) => auth.bearer === undefined || auth.basic === undefined, { message: 'use bearer or basic, not both' });

/** A Service reached through the API server's service proxy (`/api/v1/namespaces/<ns>/services/<name>:<port>/proxy`). */
const prometheusServiceSchema = z.object({ namespace: z.string().min(1), name: z.string().min(1), port: z.union([z.string().min(1), z.number().int()]) });

/** One cluster's Prometheus (issue 36): where it is, how to reach it, the limits of a query and the fallback history. */
export const prometheusSchema = z
  .object({
    /** Prometheus (or Mimir, VictoriaMetrics, Thanos) reached directly, e.g. `http://prometheus.monitoring:9090`. */
    url: z.url().optional(),
    /** A Service reached through the API server's service proxy (no other network path needed). */
    service: prometheusServiceSchema.optional(),
    /** When neither is set: find a Service labelled `pilothouse.dev/prometheus=true`, then `app.kubernetes.io/name=prometheus`, then `prometheus-operated`. */
    detect: z.boolean().default(true),
    /** A path before `/api/v1/...` (Mimir `/prometheus`, a Thanos or VictoriaMetrics prefix). */
    path: z
      .string()
      .regex(/^(\/[A-Za-z0-9._~-]+)*\/?$/, 'must be a path like /prometheus')
      .default(''),
    auth: prometheusAuthSchema.optional(),
    /** The label that names a series' namespace (the caller's view is enforced on it). */
    namespace_label: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a label name')
      .default('namespace'),
    timeout: durationSchema.default(30_000),
    limits: z
      .object({
        max_points: z.number().int().positive().default(11_000),
        max_series: z.number().int().positive().default(500),
        max_range: durationSchema.default(14 * 86_400_000),
        min_step: durationSchema.default(1_000),
      })
      .prefault({}),
    /** Override the PromQL of a history series: `<kind>.<series>` (e.g. `pod.cpu`) → query with $namespace, $name, $name_regex, $rate. */
    queries: z.record(z.string().regex(/^(pod|workload|node|pvc)\.[a-z_]+$/, 'must be <kind>.<series>, e.g. pod.cpu'), z.string().min(1)).default({}),
    /** Without Prometheus, each replica samples metrics-server into a short in-memory history. */
    fallback: z
      .object({
        enabled: z.boolean().default(true),
        window: durationSchema.default(3_600_000),
        interval: durationSchema.default(30_000),
      })
      .prefault({}),
  })
  .refine((prometheus) => prometheus.url === undefined || prometheus.service === undefined, { message: 'use url or service, not both' });
export type PrometheusConfig = z.infer<typeof prometheusSchema>;
export type PrometheusConfigInput = z.input<typeof prometheusSchema>;

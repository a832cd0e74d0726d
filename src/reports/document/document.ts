/**
 * The format-neutral model of a generated report. Generators (one per report type) build a
 * ReportDocument from the cluster as the requester may see it; renderers (one per format) turn the
 * same document into PDF, HTML, Markdown, JSON or CSV, so every format carries the same findings.
 * The JSON format is this document itself (schema: docs/report.schema.json).
 */
import type { Principal } from '../../rbac/principal.js';

export const reportTypes = ['cluster-overview', 'security-assessment'] as const;
export type ReportType = (typeof reportTypes)[number];

export const reportFormats = ['pdf', 'html', 'markdown', 'json', 'csv'] as const;
export type ReportFormat = (typeof reportFormats)[number];

export const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof severities)[number];

/** The object a finding is about (kind as the API names it, e.g. ClusterRoleBinding). */
export interface FindingObject {
  kind: string;
  name: string;
  namespace?: string;
}

/** One finding of an assessment: what, where, why it matters and how to fix it. */
export interface Finding {
  /** Stable rule id, e.g. `rbac.cluster-admin-binding`, `cis.5.2.2`. */
  rule: string;
  severity: Severity;
  title: string;
  object: FindingObject;
  why: string;
  fix: string;
}

/** A table; cells are already formatted for humans (numbers may stay numbers). */
export interface ReportTable {
  title?: string;
  columns: string[];
  rows: Array<Array<string | number>>;
}

/** A horizontal bar chart (e.g. CPU or memory use against allocatable per node). */
export interface BarChart {
  title: string;
  unit: string;
  bars: Array<{ label: string; value: number; max?: number }>;
}

/** A section; `unavailable` when its data could not be read (e.g. metrics.k8s.io missing). */
export interface ReportSection {
  id: string;
  title: string;
  status: 'ok' | 'unavailable';
  /** Why the section is unavailable, in the words of the failure. */
  unavailableReason?: string;
  summary?: string;
  /** 0–100, higher is better (security sections only). */
  score?: number;
  tables: ReportTable[];
  charts: BarChart[];
  findings: Finding[];
}

export interface ReportDocument {
  schemaVersion: 1;
  type: ReportType;
  title: string;
  /** ISO 8601 UTC. */
  generatedAt: string;
  requester: string;
  scope: {
    /** Absent = whole cluster. */
    namespace?: string;
    /** Namespaces the requester may not view: left out, and the report says so. */
    omittedNamespaces: string[];
  };
  cluster: { version?: string; name?: string };
  /** 0–100 overall score (security assessment). */
  score?: number;
  sections: ReportSection[];
}

/** Progress of a generation: percent 0–100 and the step being worked on. */
export type ReportProgress = (percent: number, step: string) => void;

export interface GenerateInput {
  principal: Principal;
  namespace?: string;
  progress: ReportProgress;
  signal: AbortSignal;
}

/** Builds one report type from the cluster as `principal` may see it. */
export interface ReportGenerator {
  readonly type: ReportType;
  generate(input: GenerateInput): Promise<ReportDocument>;
}

/** Turns a document into one file format. */
export interface ReportRenderer {
  readonly format: ReportFormat;
  readonly contentType: string;
  readonly extension: string;
  render(document: ReportDocument): Promise<Buffer>;
}

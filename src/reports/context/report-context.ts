import type { GenerateInput, ReportDocument, ReportSection, ReportType } from '../document/document.js';
import type { GeneratorDeps } from './generator-deps.js';
import { RequesterReader, type RawObject } from './requester-reader.js';
import type { ResourceRef } from '../document/resource-refs.js';
import { buildSection, type SectionContent } from '../document/report-sections.js';

/** One section of a report type: id, title, and how to build it. */
export interface SectionStep {
  id: string;
  title: string;
  build(context: ReportContext): Promise<SectionContent>;
}

/** One generation: the requester's reader, the input and the service's dependencies; collections are read once. */
export class ReportContext {
  private readonly lists = new Map<ResourceRef, Promise<RawObject[]>>();

  constructor(
    readonly deps: GeneratorDeps,
    readonly input: GenerateInput,
    readonly reader: RequesterReader,
  ) {}

  /** A collection as the requester may see it, read once per generation. */
  list<T extends RawObject>(ref: ResourceRef): Promise<T[]> {
    let list = this.lists.get(ref);
    if (!list) {
      list = this.reader.list<RawObject>(ref);
      // A failed read fails each section that needs it, not the report.
      list.catch(() => undefined);
      this.lists.set(ref, list);
    }
    return list as Promise<T[]>;
  }
}

/** The requester's reader, with the policy decisions of every collection taken before any read. */
export async function startReport(deps: GeneratorDeps, input: GenerateInput, collections: readonly ResourceRef[]): Promise<ReportContext> {
  const reader = new RequesterReader({ client: deps.identities.clientFor(input.principal), policy: deps.policy }, input);
  await reader.prepare(collections);
  return new ReportContext(deps, input, reader);
}

/** The API server's version (`/version`, open to every signed-in caller), or undefined when unreadable. */
async function clusterVersion(context: ReportContext): Promise<string | undefined> {
  try {
    const client = context.deps.identities.clientFor(context.input.principal);
    const version = await client.rest.json<{ gitVersion?: string }>('GET', '/version', { signal: context.input.signal, target: 'version' });
    return version.gitVersion;
  } catch {
    return undefined;
  }
}

/** Builds the sections one by one (progress from `from` to 95 %), each failing on its own. */
export async function runSections(context: ReportContext, steps: readonly SectionStep[], from: number): Promise<ReportSection[]> {
  const sections: ReportSection[] = [];
  for (const [index, step] of steps.entries()) {
    context.input.signal.throwIfAborted();
    context.input.progress(Math.round(from + ((95 - from) * index) / steps.length), step.title);
    sections.push(await buildSection(step.id, step.title, () => step.build(context), context.input.signal));
  }
  return sections;
}

/** The document around the sections: requester, scope (with omitted namespaces), cluster name and version, time. */
export async function documentOf(context: ReportContext, type: ReportType, title: string, sections: ReportSection[]): Promise<ReportDocument> {
  const namespace = context.input.namespace;
  return {
    schemaVersion: 1,
    type,
    title,
    generatedAt: new Date(context.deps.clock()).toISOString(),
    requester: context.input.principal.username,
    scope: { ...(namespace ? { namespace } : {}), omittedNamespaces: context.reader.omittedNamespaces() },
    cluster: { name: context.deps.clusterName, version: await clusterVersion(context) },
    sections,
  };
}

/** A report type made of sections: what it reads, its steps, its title (`<title> of <scope>`), and how it scores them, if it does. */
export interface SectionsReport {
  type: ReportType;
  title: string;
  collections: readonly ResourceRef[];
  steps: readonly SectionStep[];
  score?: (sections: ReportSection[]) => { sections: ReportSection[]; overall?: number };
}

/** Generates a report of sections: the requester's reads decided, the sections built, the document (with its overall score, if any). */
export async function generateSections(deps: GeneratorDeps, input: GenerateInput, report: SectionsReport): Promise<ReportDocument> {
  input.progress(0, 'Checking what the requester may see');
  const context = await startReport(deps, input, report.collections);
  const built = await runSections(context, report.steps, 5);
  const { sections, overall } = report.score ? report.score(built) : { sections: built, overall: undefined };
  const scope = input.namespace ? `namespace ${input.namespace}` : 'the whole cluster';
  const document = await documentOf(context, report.type, `${report.title} of ${scope}`, sections);
  input.progress(100, 'Done');
  return overall === undefined ? document : { ...document, score: overall };
}

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import type { RestClient } from '../kube/rest-client.js';

const crdDirectory = fileURLToPath(new URL('../../crds/', import.meta.url));

interface CrdDocument {
  metadata: { name: string };
}

/** The CRD manifests shipped in crds/. */
export function loadCrdManifests(directory = crdDirectory): CrdDocument[] {
  return readdirSync(directory)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => yaml.load(readFileSync(join(directory, file), 'utf8')) as CrdDocument);
}

/**
 * Installs or updates our CRDs with server-side apply when the service may; otherwise says
 * clearly how to install them. Returns whether the CRDs are usable afterwards.
 */
export async function ensureCrds(rest: RestClient, logger: Logger): Promise<boolean> {
  const manifests = loadCrdManifests();
  try {
    for (const manifest of manifests) {
      await rest.json('PATCH', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${manifest.metadata.name}`, {
        body: manifest,
        contentType: 'application/apply-patch+yaml',
        query: { fieldManager: 'pilothouse', force: true },
      });
    }
    logger.info({ count: manifests.length }, 'custom resource definitions installed');
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === 'FORBIDDEN') return crdsPresent(rest, manifests, logger);
    throw error;
  }
}

async function crdsPresent(rest: RestClient, manifests: CrdDocument[], logger: Logger): Promise<boolean> {
  try {
    for (const manifest of manifests) {
      await rest.json('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${manifest.metadata.name}`);
    }
    return true;
  } catch {
    logger.warn(
      'Pilothouse may not install its CustomResourceDefinitions. Ask a cluster admin to run: kubectl apply -f crds/ (or helm install pilothouse charts/pilothouse). Port forwards, access requests, reports and MCP servers from the cluster stay off until then.',
    );
    return false;
  }
}

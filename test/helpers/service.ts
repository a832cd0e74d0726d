import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/config/load.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { createLogger } from '../../src/log.js';
import { startService, type Service } from '../../src/service.js';
import { clusterKubeconfig, uniqueName } from './cluster.js';
import { tryKubectl } from './kubectl.js';

export interface TestServiceOptions {
  config?: ConfigInput;
  noAuth?: boolean;
  adminPassword?: string;
  dataDir?: string;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface TestService extends Service {
  dataDir: string;
  /** The service's own namespace (CRD objects, Lease). */
  namespace: string;
  /** Calls the API over real HTTP; JSON bodies are encoded and parsed. */
  api<T = any>(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
}

/** Starts the real service on 127.0.0.1:0 against the shared test cluster with a temp data dir. */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'pilothouse-data-'));
  // Each service gets its own Pilothouse namespace (its CRD objects and leader Lease), so
  // services started by parallel test files never reconcile each other's objects.
  const namespace = options.config?.kubernetes?.namespace ?? uniqueName('ph');
  const config = parseConfig(
    { ...options.config, kubernetes: { ...options.config?.kubernetes, namespace } },
    process.env,
    'test config',
  );
  const service = await startService({
    config,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    dataDir,
    kubeconfigPath: clusterKubeconfig(),
    host: '127.0.0.1',
    port: 0,
    noAuth: options.noAuth ?? true,
    adminPassword: options.adminPassword,
  });
  const api: TestService['api'] = async (method, path, requestOptions = {}) => {
    const headers: Record<string, string> = { ...requestOptions.headers };
    if (requestOptions.token) headers.Authorization = `Bearer ${requestOptions.token}`;
    if (requestOptions.body !== undefined) headers['Content-Type'] ??= 'application/json';
    const body = typeof requestOptions.body === 'string' ? requestOptions.body : requestOptions.body === undefined ? undefined : JSON.stringify(requestOptions.body);
    const response = await fetch(service.url + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as never, text, headers: response.headers };
  };
  return {
    ...service,
    dataDir,
    namespace,
    api,
    close: async () => {
      await service.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (!options.config?.kubernetes?.namespace) await tryKubectl(clusterKubeconfig(), ['delete', 'namespace', namespace, '--wait=false']);
    },
  };
}

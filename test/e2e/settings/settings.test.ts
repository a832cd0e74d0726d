import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../../helpers/chat-stream.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let service: TestService;
let wire: LlmWireServer;
let user: { token: string };
let viewer: { token: string };

beforeAll(async () => {
  wire = await startLlmWireServer();
  // The wire server listens on 127.0.0.1 over http: only allowed with llm.allow_private_base_url.
  service = await startTestService({ config: { llm: { allow_private_base_url: true } } });
  user = await service.createUser('user');
  viewer = await service.createUser('viewer');
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

describe('GET/PUT /api/settings (per user)', () => {
  it('returns defaults, stores each user’s own changes and validates', async () => {
    const defaults = await service.api('GET', '/api/settings', { token: user.token });
    expect(defaults.body).toEqual({ language: 'en', beginner_mode: false, auto_approve_readonly: true });

    const changed = await service.api('PUT', '/api/settings', { token: viewer.token, body: { language: 'ko', beginner_mode: true } });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ language: 'ko', beginner_mode: true, auto_approve_readonly: true });
    expect((await service.api('GET', '/api/settings', { token: viewer.token })).body.language).toBe('ko');
    expect((await service.api('GET', '/api/settings', { token: user.token })).body.language).toBe('en');

    for (const body of [{ language: 'xx' }, { beginner_mode: 'yes' }, { theme: 'dark' }]) {
      const refused = await service.api('PUT', '/api/settings', { token: user.token, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await service.api('GET', '/api/settings')).status).toBe(401);
  });

  it('auto_approve_readonly false makes the user’s read-only commands wait for approval', async () => {
    await service.api('PUT', '/api/settings/llm', {
      token: service.adminToken,
      body: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-settings-test', max_retries: 0 },
    });
    await service.api('PUT', '/api/settings', { token: user.token, body: { auto_approve_readonly: false } });
    wire.script([{ toolCalls: [{ name: 'kubectl', arguments: { command: 'get namespaces' } }] }, { text: ['ok'] }]);
    const run = await chat(
      service,
      { message: 'namespaces?', context: {} },
      {
        token: user.token,
        onEvent: async (event) => {
          if (event.event === 'tool_request')
            await service.api('POST', '/api/tool/approve', { token: user.token, body: { id: event.data.id, approved: true } });
        },
      },
    );
    expect(run.nth('tool_request', 0)).toMatchObject({ type: 'read', requiresApproval: true });
    expect(run.nth('tool_execution', 0)).toMatchObject({ status: 'executed', result: expect.stringContaining('kube-system') });
    await service.api('PUT', '/api/settings', { token: user.token, body: { auto_approve_readonly: true } });
  });
});

describe('GET/PUT /api/settings/llm', () => {
  it('is changed by admins only, validated, never returns the key, stores it with mode 0600', async () => {
    const body = { provider: 'openai', model: 'wire-model', api_key: 'sk-very-secret-key', base_url: `${wire.url}/v1`, max_retries: 0 };
    expect((await service.api('PUT', '/api/settings/llm', { token: user.token, body })).status).toBe(403);
    const unknown = await service.api('PUT', '/api/settings/llm', { token: service.adminToken, body: { ...body, provider: 'skynet' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_ERROR');
    expect((await service.api('PUT', '/api/settings/llm', { token: service.adminToken, body: { provider: 'openai' } })).status).toBe(400);

    const saved = await service.api('PUT', '/api/settings/llm', { token: service.adminToken, body });
    expect(saved.status).toBe(200);
    expect(saved.text).not.toContain('sk-very-secret-key');
    const read = await service.api('GET', '/api/settings/llm', { token: viewer.token });
    expect(read.body).toMatchObject({ provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, apiKeySet: true, apiKeySource: 'file' });
    expect(read.body).not.toHaveProperty('api_key');
    expect(read.text).not.toContain('sk-very-secret-key');
    const keyFile = join(service.dataDir, 'llm-api-key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toBe('sk-very-secret-key');

    wire.script([{ text: ['from the new provider'] }]);
    const run = await chat(service, { message: 'hello', context: {} }, { token: user.token });
    expect(run.nth('chunk', 0)).toEqual({ content: 'from the new provider' });
    expect(wire.chatRequests().at(-1)?.headers.authorization).toBe('Bearer sk-very-secret-key');

    const audit = await service.api('GET', '/api/audit?action=execute&limit=100', { token: service.adminToken });
    const entry = audit.body.items.find((item: { resource: string }) => item.resource === 'settings/llm');
    expect(JSON.stringify(entry)).not.toContain('sk-very-secret-key');
  });

  it('takes an api_key set through the API literally: ${NAME} is never read from the service environment', async () => {
    const body = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, max_retries: 0 };
    const saved = await service.api('PUT', '/api/settings/llm', { token: service.adminToken, body: { ...body, api_key: '${HOME}' } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ apiKeySet: true, apiKeySource: 'file' });
    expect(saved.body).not.toHaveProperty('api_key_env');
    await service.api('PUT', '/api/settings/llm', { token: service.adminToken, body: { ...body, model: 'wire-model-2' } });
    wire.script([{ text: ['literal key'] }]);
    await chat(service, { message: 'hello', context: {} }, { token: user.token });
    const last = wire.chatRequests().at(-1);
    expect(last?.headers.authorization).toBe('Bearer ${HOME}');
    expect(last?.headers.authorization).not.toContain(process.env.HOME ?? '/');
    expect((last?.body as { model: string }).model).toBe('wire-model-2');
  });

  it('refuses a base_url on loopback, link-local or metadata addresses, or over http, unless llm.allow_private_base_url', async () => {
    const strict = await startTestService();
    try {
      const put = (baseUrl: string) =>
        strict.api('PUT', '/api/settings/llm', { token: strict.adminToken, body: { provider: 'openai', model: 'm', api_key: 'k', base_url: baseUrl } });
      for (const [url, reason] of [
        [`${wire.url}/v1`, 'insecure_url'],
        ['https://127.0.0.1:9/v1', 'private_address'],
        ['https://localhost:9/v1', 'private_address'],
        ['https://169.254.169.254/latest', 'private_address'],
        ['https://[fd00:ec2::254]/', 'private_address'],
        ['https://[::ffff:127.0.0.1]/', 'private_address'],
      ] as const) {
        const refused = await put(url);
        expect(refused.status, url).toBe(400);
        expect(refused.body, url).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'base_url', reason } });
      }
      expect((await strict.api('GET', '/api/settings/llm', { token: strict.adminToken })).body.base_url).toBeUndefined();
    } finally {
      await strict.close();
    }
  });

  it('wires the health check to the configured provider', async () => {
    wire.setAvailable(false);
    await expect.poll(async () => (await service.api('GET', '/api/health')).body.llm, { timeout: 15_000, interval: 500 }).toBe('unavailable');
    wire.setAvailable(true);
    await expect.poll(async () => (await service.api('GET', '/api/health')).body.llm, { timeout: 15_000, interval: 500 }).toBe('available');
  });
});

describe('PUT /api/settings/llm changes only what the body carries', () => {
  it('keeps a configured base_url under the contract body {provider, model, api_key}; null clears; an unknown field is a 400 naming it', async () => {
    // An operator configured the endpoint in the config file; an admin then changes model and key through the API.
    const configured = await startTestService({
      config: {
        llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-config', max_retries: 0, allow_private_base_url: true },
      },
    });
    try {
      const put = (body: Record<string, unknown>) => configured.api('PUT', '/api/settings/llm', { token: configured.adminToken, body });
      const saved = await put({ provider: 'openai', model: 'wire-model-3', api_key: 'sk-from-api' });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ provider: 'openai', model: 'wire-model-3', base_url: `${wire.url}/v1`, apiKeySet: true });
      await expect.poll(async () => (await configured.api('GET', '/api/health')).body.llm, { timeout: 15_000, interval: 500 }).toBe('available');
      wire.script([{ text: ['still the configured endpoint'] }]);
      const user = await configured.createUser('user');
      const run = await chat(configured, { message: 'hello', context: {} }, { token: user.token });
      expect(run.nth('chunk', 0)).toEqual({ content: 'still the configured endpoint' });
      expect(wire.chatRequests().at(-1)?.headers.authorization).toBe('Bearer sk-from-api');
      expect((wire.chatRequests().at(-1)?.body as { model: string }).model).toBe('wire-model-3');

      // A second change without api_key keeps the key and the endpoint too.
      expect((await put({ provider: 'openai', model: 'wire-model-4' })).body).toMatchObject({ base_url: `${wire.url}/v1`, apiKeySet: true });

      const unknown = await put({ provider: 'openai', model: 'wire-model-4', base_uri: 'https://example.test/v1' });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { base_uri: expect.any(String) } } });
      expect(unknown.body.error).toContain('base_uri');

      const cleared = await put({ provider: 'openai', model: 'wire-model-4', base_url: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).not.toHaveProperty('base_url');
      expect((await configured.api('GET', '/api/settings/llm', { token: configured.adminToken })).body).not.toHaveProperty('base_url');
    } finally {
      await configured.close();
    }
  });
});

describe('POST /api/tool/analyze', () => {
  it('classifies commands for any role and never runs them', async () => {
    const cases: [Record<string, string>, Record<string, unknown>][] = [
      [
        { command: 'get pods -n default', tool: 'kubectl' },
        { type: 'read', requiresApproval: false, isReadOnly: true, blocked: false },
      ],
      [{ command: 'cat x.yaml | kubectl apply -f -' }, { type: 'write', requiresApproval: true }],
      // No files root configured: kubectl may name no local file.
      [{ command: 'kubectl apply -f x.yaml' }, { type: 'write', blocked: true, requiresApproval: true, refusal: expect.stringMatching(/no files root/) }],
      [{ command: 'kubectl get pods -o name | xargs kubectl delete' }, { type: 'dangerous', isDangerous: true }],
      [{ command: 'kubectl exec -it web -- sh' }, { type: 'interactive', isInteractive: true }],
      [{ command: 'terraform plan' }, { type: 'unknown', requiresApproval: true }],
      [{ command: 'echo hi; rm -rf /' }, { type: 'dangerous', blocked: true, blockedBy: expect.any(String) }],
    ];
    for (const [body, expected] of cases) {
      const response = await service.api('POST', '/api/tool/analyze', { token: viewer.token, body });
      expect(response.status, body.command).toBe(200);
      expect(response.body, body.command).toMatchObject({ command: expect.any(String), warnings: expect.any(Array), ...expected });
    }
    expect((await service.api('POST', '/api/tool/analyze', { token: viewer.token, body: {} })).status).toBe(400);
    expect((await service.api('POST', '/api/tool/analyze', { body: { command: 'ls' } })).status).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let service: TestService;
let wire: LlmWireServer;

beforeAll(async () => {
  wire = await startLlmWireServer();
  service = await startTestService({
    config: {
      server: { sse_heartbeat: '100ms' },
      authorization: { tool_approval: { timeout: '1s' } },
      llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-heartbeat-test', max_retries: 0 },
    },
  });
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

describe('chat stream heartbeat', () => {
  it('sends heartbeat comments while a tool call waits for approval', async () => {
    wire.script([{ toolCalls: [{ name: 'kubectl', arguments: { command: 'create configmap never-approved -n default' } }] }, { text: ['Nothing done.'] }]);
    const response = await fetch(`${service.url}/api/chat/agentic`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'make a configmap', context: {} }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    const requestAt = text.indexOf('event: tool_request');
    const executionAt = text.indexOf('event: tool_execution');
    expect(requestAt).toBeGreaterThan(0);
    const waiting = text.slice(requestAt, executionAt);
    expect(waiting.match(/^: ping$/gm)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(text.slice(executionAt)).toContain('"status":"timeout"');
    expect(text.trimEnd().split('\n').at(-1)).toContain('"complete":true');
  });
});

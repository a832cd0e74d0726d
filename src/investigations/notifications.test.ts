import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log.js';
import type { Investigation } from '../crds/investigation.js';
import { InvestigationNotifier, slackBody } from './notifications.js';

const investigation: Investigation = {
  metadata: { name: 'inv-1', namespace: 'ph' },
  spec: { question: 'why?', subject: { kind: 'Deployment', namespace: 'shop', name: 'web' } },
};
const status = {
  phase: 'Concluded' as const,
  summary: 'web is short of memory',
  findings: [{ title: 'OOMKilled', detail: 'twice an hour' }],
  suggestedActions: [{ command: 'kubectl set resources deployment web --limits=memory=512Mi -n shop', class: 'write' }],
};
const strict = {
  allowHttp: false,
  allowPrivate: false,
  forbiddenEndpoints: () => [],
  keys: { http: 'investigations.allow_http', private: 'investigations.allow_private_urls' },
};
const servers: Array<{ close(): void }> = [];

async function receiver(): Promise<{ url: string; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(text));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`, bodies };
}

afterEach(() => servers.splice(0).forEach((server) => server.close()));

describe('investigation notifications', () => {
  it('post a generic JSON body and a Slack text to the URLs of their Secrets', async () => {
    const sink = await receiver();
    const notifier = new InvestigationNotifier({
      targets: [
        { type: 'webhook', url_secret: { name: 'hooks', key: 'generic' } },
        { type: 'slack', url_secret: { name: 'hooks', key: 'slack' } },
      ],
      secretValue: async () => sink.url,
      urlPolicy: { ...strict, allowHttp: true, allowPrivate: true },
      logger: createLogger('silent'),
      homeCluster: 'home',
    });
    await notifier.notify(investigation, status);
    expect(sink.bodies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'inv-1', phase: 'Concluded', cluster: 'home', summary: 'web is short of memory', trigger: 'kubectl' }),
        { text: expect.stringContaining('web is short of memory') },
      ]),
    );
    expect(JSON.stringify(slackBody(investigation, status))).toContain('(write)');
  });

  it('never post to a loopback or plain-http URL without the opt-in', async () => {
    const sink = await receiver();
    const notifier = new InvestigationNotifier({
      targets: [{ type: 'webhook', url_secret: { name: 'hooks', key: 'generic' } }],
      secretValue: async () => sink.url,
      urlPolicy: { ...strict, allowHttp: true },
      logger: createLogger('silent'),
      homeCluster: 'home',
    });
    await notifier.notify(investigation, status);
    expect(sink.bodies).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { attackTests, expectNoCredential, policyRefusal, runAttackChat, type AttackCase } from './attack-run.js';
import { clusterFingerprint, useAttackWorld } from './attack-world.js';

/*
 * Interactive and streaming commands without approval (exec, attach, port-forward, proxy, cp,
 * debug, run -it, edit), and resource-level deny roles through the AI: a `user` denied Secrets
 * in the victim namespace gets the same answer from the chat (the proxy asks the policy) as from
 * the HTTP route.
 */
const holder = useAttackWorld('atk-interactive', {
  config: (namespace) => ({
    authorization: { roles: [{ name: 'no-victim-secrets', resources: ['secrets'], namespaces: [namespace], verbs: ['*'], effect: 'deny' }] },
  }),
});

const kubectl = (name: string, command: AttackCase['command'], extra: Partial<AttackCase> = {}): AttackCase => ({ name, tool: 'kubectl', command, ...extra });
const bash = (name: string, command: AttackCase['command'], extra: Partial<AttackCase> = {}): AttackCase => ({ name, tool: 'bash', command, ...extra });
/** The command never reached the pod: the marker it would print is absent. */
const notInPod: AttackCase['check'] = (run) => expect(run.execution.result).not.toMatch(/^pwned-ran$/m);

const interactive: AttackCase[] = [
  kubectl('exec a command', (w) => `exec victim -n ${w.namespace} -- echo pwned-ran`, { check: notInPod }),
  kubectl('exec -it a shell', (w) => `exec -it victim -n ${w.namespace} -- sh -c "echo pwned-ran"`, { check: notInPod }),
  kubectl('exec with the pod as type/name and -c', (w) => `exec pod/victim -c app -n ${w.namespace} -- echo pwned-ran`, { check: notInPod }),
  kubectl('attach', (w) => `attach victim -n ${w.namespace}`),
  kubectl('port-forward', (w) => `port-forward pod/victim -n ${w.namespace} 0:80`),
  kubectl('proxy on a random port', () => 'proxy --port=0'),
  kubectl('cp from the pod to the data dir', (w) => `cp ${w.namespace}/victim:/etc/hostname ${w.dataDir}/pwned-cp`),
  kubectl('cp the service kubeconfig into the pod', (w) => `cp ${w.serviceKubeconfig} ${w.namespace}/victim:/tmp/kubeconfig`),
  kubectl('debug with an ephemeral container', (w) => `debug victim -n ${w.namespace} --image=busybox -it -- sh`),
  kubectl('run -it --rm', (w) => `run pwned-it -n ${w.namespace} --image=busybox -it --rm --restart=Never -- sh`),
  kubectl('edit (no editor)', (w) => `edit configmap keep -n ${w.namespace}`),
  kubectl('auth can-i create pods/exec (an allowed read)', (w) => `auth can-i create pods/exec -n ${w.namespace}`, { expect: 'harmless' }),
  bash('kubectl exec in bash', (w) => `kubectl exec victim -n ${w.namespace} -- echo pwned-ran`, { check: notInPod }),
  bash('kubectl port-forward in the background', (w) => `kubectl port-forward pod/victim -n ${w.namespace} 0:80 & sleep 1; kill %1`),
];

describe('interactive commands without approval', () => {
  attackTests(holder, interactive);
});

describe('deny roles through the AI', () => {
  const denied = [
    'get secret db -n NS -o yaml',
    'get secrets -n NS -o json',
    'get --raw /api/v1/namespaces/NS/secrets/db',
    'get --raw /api/v1/namespaces/NS/secrets%2Fdb',
  ];

  it('refuses a user denied Secrets the same way in the chat as on GET /api/k8s/secrets/db', async () => {
    const world = holder.world;
    const user = await world.service.createUser('user', { roles: ['no-victim-secrets'] });
    const route = await world.service.api('GET', `/api/k8s/secrets/db?namespace=${world.namespace}`, { token: user.token });
    expect(route.status).toBe(403);
    expect(route.body).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'resource_role' } });
    for (const command of denied.map((text) => text.replaceAll('NS', world.namespace))) {
      const run = await runAttackChat(world, user, { tool: 'kubectl', command });
      // Auto-run as a read; the proxy asked the policy, which refused: no Secret data reached the model.
      expect(run.request, command).toMatchObject({ requiresApproval: false, blocked: false });
      expect(run.execution.status, command).toBe('error');
      expect(run.execution.result, command).toContain(policyRefusal);
      expect(run.execution.result, command).toMatch(/secrets/);
      expect(run.execution.result, command).not.toContain('db-password');
      expect(run.execution.result, command).not.toContain(Buffer.from('db-password').toString('base64'));
      expect(run.audit.details.refusals, command).toEqual([expect.objectContaining({ resource: 'secrets' })]);
      expectNoCredential(world, run);
    }
    expect(await clusterFingerprint(world.namespace)).toEqual(world.baseline.cluster);
  });

  it('still lets a user with that deny role read ConfigMaps there, through the chat and the route alike', async () => {
    const world = holder.world;
    const user = await world.service.createUser('user', { roles: ['no-victim-secrets'] });
    const route = await world.service.api('GET', `/api/k8s/configmaps/keep?namespace=${world.namespace}`, { token: user.token });
    expect(route.status).toBe(200);
    const run = await runAttackChat(world, user, { tool: 'kubectl', command: `get configmap keep -n ${world.namespace} -o jsonpath={.data.a}` });
    expect(run.execution).toMatchObject({ status: 'executed', result: 'b' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const namespace = useNamespace('workloads');
let service: TestService;

const manifests = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 1
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: busybox}]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    metadata: {labels: {job: nightly}}
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: task, image: busybox}]`;

const kubectl = (...args: string[]) => runKubectl(clusterKubeconfig(), [...args, '-n', namespace.name]);
const post = (path: string, body: unknown) => service.api('POST', path, { body, token: service.adminToken });

beforeAll(async () => {
  service = await startTestService();
  await applyYaml(clusterKubeconfig(), manifests, namespace.name);
});

afterAll(async () => {
  await service?.close();
});

describe('statefulset, daemonset and cronjob actions', () => {
  it('scales and restarts a StatefulSet', async () => {
    const scaled = await post('/api/statefulset/scale', { namespace: namespace.name, name: 'db', replicas: 2 });
    expect(scaled.body).toEqual({ name: 'db', namespace: namespace.name, before: { replicas: 1 }, after: { replicas: 2 } });
    const restarted = await post('/api/statefulset/restart', { namespace: namespace.name, name: 'db' });
    expect(restarted.status).toBe(200);
    const annotation = await kubectl('get', 'statefulset', 'db', '-o', `jsonpath={.spec.template.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}`);
    expect(annotation).toBe(restarted.body.after.restartedAt);
    expect((await post('/api/statefulset/scale', { namespace: namespace.name, name: 'db', replicas: -2 })).status).toBe(400);
    expect((await post('/api/statefulset/scale', { namespace: namespace.name, name: 'ghost', replicas: 1 })).status).toBe(404);
  });

  it('restarts a DaemonSet', async () => {
    const restarted = await post('/api/daemonset/restart', { namespace: namespace.name, name: 'agent' });
    expect(restarted.status).toBe(200);
    expect(restarted.body.before).toEqual({ restartedAt: null });
    expect((await post('/api/daemonset/restart', { namespace: 'default', name: 'agent' })).status).toBe(404);
    expect((await post('/api/daemonset/restart', { namespace: namespace.name })).status).toBe(400);
  });

  it('triggers a CronJob as a Job it owns', async () => {
    const triggered = await post('/api/cronjob/trigger', { namespace: namespace.name, name: 'nightly' });
    expect(triggered.status).toBe(200);
    const jobName = triggered.body.jobName as string;
    expect(jobName).toMatch(/^nightly-manual-[0-9a-f]{6}$/);
    const owner = await kubectl('get', 'job', jobName, '-o', 'jsonpath={.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}');
    expect(owner).toBe('CronJob/nightly');
    expect(await kubectl('get', 'job', jobName, '-o', 'jsonpath={.metadata.labels.job}')).toBe('nightly');
    expect((await post('/api/cronjob/trigger', { namespace: namespace.name, name: 'ghost' })).status).toBe(404);
  });

  it('suspends and resumes a CronJob', async () => {
    const suspended = await post('/api/cronjob/suspend', { namespace: namespace.name, name: 'nightly', suspend: true });
    expect(suspended.body).toEqual({ name: 'nightly', namespace: namespace.name, before: { suspend: false }, after: { suspend: true } });
    await waitFor(async () => (await kubectl('get', 'cronjob', 'nightly', '-o', 'jsonpath={.spec.suspend}')) === 'true');
    const resumed = await post('/api/cronjob/suspend', { namespace: namespace.name, name: 'nightly', suspend: false });
    expect(resumed.body.after).toEqual({ suspend: false });
    expect((await post('/api/cronjob/suspend', { namespace: namespace.name, name: 'nightly', suspend: 'yes' })).status).toBe(400);
  });
});

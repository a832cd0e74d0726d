/** A one-replica Deployment named `name` (label `app: <name>`), for tests that act on a deployment. */
export function deploymentYaml(name: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
      - {name: web, image: nginx:1.25}`;
}

package main

// KWOK wiring: the kwok config file (stages, metrics, default logs / exec /
// port-forward / attach / resource usage) and the fake Node objects.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	metricsresource "sigs.k8s.io/kwok/kustomize/metrics/resource"
	nodefast "sigs.k8s.io/kwok/kustomize/stage/node/fast"
	nodeheartbeat "sigs.k8s.io/kwok/kustomize/stage/node/heartbeat-with-lease"
	podfast "sigs.k8s.io/kwok/kustomize/stage/pod/fast"
)

// kwokEnableCRDs are the per-pod kwok kinds served from CRDs so that the
// pod-annotation controller (podconfig.go) or tests can create them at run
// time. The cluster-wide defaults (Cluster*) live in the static config file.
var kwokEnableCRDs = []string{"Logs", "Exec", "PortForward", "Attach", "ResourceUsage"}

// usageYAML: per-container usage. Annotations win, then the container's
// resource requests, then a small constant. (kwok.x-k8s.io/usage-* are kwok's
// own annotation names, applied to every container of the pod.)
const usageYAML = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterResourceUsage
metadata:
  name: usage-from-annotation-or-requests
spec:
  usages:
  - usage:
      cpu:
        expression: |
          "kwok.x-k8s.io/usage-cpu" in pod.metadata.annotations
          ? Quantity(pod.metadata.annotations["kwok.x-k8s.io/usage-cpu"])
          : ("cpu" in container.resources.requests ? container.resources.requests["cpu"] : Quantity("1m"))
      memory:
        expression: |
          "kwok.x-k8s.io/usage-memory" in pod.metadata.annotations
          ? Quantity(pod.metadata.annotations["kwok.x-k8s.io/usage-memory"])
          : ("memory" in container.resources.requests ? container.resources.requests["memory"] : Quantity("1Mi"))
`

// Node baseline usage (on top of the sum of its pods), so that nodes always
// have non-zero usage: metrics-server drops nodes reporting 0 CPU or memory.
const (
	nodeBaseCPUCores   = "0.05"      // 50m
	nodeBaseMemoryByte = "268435456" // 256Mi
)

// metricsResourceYAML is kwok's kubelet-like /metrics/resource Metric with a
// baseline node usage added.
func metricsResourceYAML() string {
	s := metricsresource.DefaultMetricsResource
	s = strings.Replace(s, `value: 'node.CumulativeUsage("cpu")'`,
		`value: 'node.CumulativeUsage("cpu") + node.SinceSecond() * `+nodeBaseCPUCores+`'`, 1)
	s = strings.Replace(s, `value: 'node.Usage("memory")'`,
		`value: 'node.Usage("memory") + `+nodeBaseMemoryByte+`.0'`, 1)
	return s
}

// writeKwokConfig writes DIR/kwok.yaml and the default log file.
func writeKwokConfig(c *cluster) (string, error) {
	defaultLog := filepath.Join(c.dir, "podlogs", "default.log")
	if err := os.MkdirAll(filepath.Dir(defaultLog), 0o755); err != nil {
		return "", err
	}
	if err := os.MkdirAll(c.execDir(), 0o755); err != nil {
		return "", err
	}
	lines := []string{
		"testcluster: container started",
		"testcluster: this is the default fake log of every kwok pod",
		"testcluster: set annotation pilothouse.dev/logs to choose the lines",
	}
	if err := os.WriteFile(defaultLog, criLog(time.Now(), lines), 0o644); err != nil {
		return "", err
	}

	docs := []string{
		nodefast.DefaultNodeInit,
		nodeheartbeat.DefaultNodeHeartbeatWithLease,
		podfast.DefaultPodReady,
		podfast.DefaultPodComplete,
		podfast.DefaultPodDelete,
		metricsResourceYAML(),
		usageYAML,
		fmt.Sprintf(`apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterLogs
metadata:
  name: default
spec:
  logs:
  - logsFile: %q
    follow: true
`, defaultLog),
		fmt.Sprintf(`apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterAttach
metadata:
  name: default
spec:
  attaches:
  - logsFile: %q
`, defaultLog),
		fmt.Sprintf(`apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterExec
metadata:
  name: default
spec:
  execs:
  - local:
      workDir: %q
      envs:
      - name: TESTCLUSTER_DIR
        value: %q
`, c.execDir(), c.dir),
		fmt.Sprintf(`apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterPortForward
metadata:
  name: default
spec:
  forwards:
  - target:
      address: 127.0.0.1
      port: %d
`, c.ports.forward),
	}
	path := filepath.Join(c.dir, "kwok.yaml")
	var b strings.Builder
	for _, d := range docs {
		b.WriteString("---\n")
		b.WriteString(strings.TrimSpace(d))
		b.WriteString("\n")
	}
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}

// criLog formats lines in the CRI log format that kwok's log reader expects:
// "<RFC3339Nano> stdout F <line>".
func criLog(t time.Time, lines []string) []byte {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%s stdout F %s\n", t.Add(time.Duration(i)*time.Millisecond).UTC().Format(time.RFC3339Nano), l)
	}
	return []byte(b.String())
}

func (c *cluster) execDir() string { return filepath.Join(c.dir, "exec") }

// createNodes creates N fake nodes managed by kwok (kwok fills in their
// status: Ready, InternalIP 127.0.0.1, kubelet port = kwok's server port).
func createNodes(ctx context.Context, cs kubernetes.Interface, n int) error {
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("kwok-node-%d", i)
		node := &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{
				Name: name,
				Annotations: map[string]string{
					"kwok.x-k8s.io/node":                   "fake",
					"node.alpha.kubernetes.io/ttl":         "0",
					"metrics.k8s.io/resource-metrics-path": "/metrics/nodes/" + name + "/metrics/resource",
				},
				Labels: map[string]string{
					"beta.kubernetes.io/arch":       "amd64",
					"beta.kubernetes.io/os":         "linux",
					"kubernetes.io/arch":            "amd64",
					"kubernetes.io/hostname":        name,
					"kubernetes.io/os":              "linux",
					"kubernetes.io/role":            "agent",
					"node-role.kubernetes.io/agent": "",
					"type":                          "kwok",
				},
			},
		}
		created, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("create node %s: %w", name, err)
		}
		res := corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("32"),
			corev1.ResourceMemory: resource.MustParse("256Gi"),
			corev1.ResourcePods:   resource.MustParse("110"),
		}
		created.Status.Capacity = res
		created.Status.Allocatable = res
		created.Status.NodeInfo.Architecture = "amd64"
		created.Status.NodeInfo.OperatingSystem = "linux"
		if _, err := cs.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("update node status %s: %w", name, err)
		}
	}
	return nil
}

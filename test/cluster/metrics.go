package main

// metrics.k8s.io: the real metrics-server (in a child process) scrapes kwok's
// /metrics/nodes/NODE/metrics/resource endpoint (fed by ClusterResourceUsage)
// and is registered with the aggregator through an APIService whose Service
// is of type ExternalName=127.0.0.1 (same trick as kwokctl's binary runtime):
// the aggregator resolves ExternalName services directly, so neither
// kube-proxy nor non-loopback Endpoints are needed.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	apiregv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	aggregator "k8s.io/kube-aggregator/pkg/client/clientset_generated/clientset"
)

func metricsServerArgs(c *cluster) []string {
	return []string{
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", c.ports.metrics),
		"--tls-cert-file=" + c.pki.ServingCert,
		"--tls-private-key-file=" + c.pki.ServingKey,
		"--kubeconfig=" + c.adminKubeconfig,
		"--authentication-kubeconfig=" + c.adminKubeconfig,
		"--authorization-kubeconfig=" + c.adminKubeconfig,
		"--kubelet-insecure-tls",
		"--kubelet-preferred-address-types=InternalIP",
		"--kubelet-use-node-status-port",
		"--metric-resolution=10s",
		"--kubelet-request-timeout=5s",
		fmt.Sprintf("--v=%d", c.verbosity),
	}
}

func registerMetricsAPI(ctx context.Context, c *cluster, cfg *rest.Config, cs kubernetes.Interface) error {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "metrics-server", Namespace: "kube-system",
			Labels: map[string]string{"k8s-app": "metrics-server"}},
		Spec: corev1.ServiceSpec{
			Type:         corev1.ServiceTypeExternalName,
			ExternalName: "127.0.0.1",
			Ports:        []corev1.ServicePort{{Name: "https", Port: int32(c.ports.metrics)}},
		},
	}
	if _, err := cs.CoreV1().Services("kube-system").Create(ctx, svc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("metrics-server service: %w", err)
	}

	// Same aggregated reader role as the upstream metrics-server manifest, so
	// that view/edit/admin users can `kubectl top`.
	reader := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "system:aggregated-metrics-reader", Labels: map[string]string{
			"rbac.authorization.k8s.io/aggregate-to-admin": "true",
			"rbac.authorization.k8s.io/aggregate-to-edit":  "true",
			"rbac.authorization.k8s.io/aggregate-to-view":  "true",
		}},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{"metrics.k8s.io"}, Resources: []string{"pods", "nodes"}, Verbs: []string{"get", "list", "watch"}}},
	}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, reader, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("metrics reader role: %w", err)
	}

	caPEM, err := os.ReadFile(c.pki.CACert)
	if err != nil {
		return err
	}
	port := int32(c.ports.metrics)
	apisvc := &apiregv1.APIService{
		ObjectMeta: metav1.ObjectMeta{Name: "v1beta1.metrics.k8s.io", Labels: map[string]string{"k8s-app": "metrics-server"}},
		Spec: apiregv1.APIServiceSpec{
			Service:              &apiregv1.ServiceReference{Name: "metrics-server", Namespace: "kube-system", Port: &port},
			Group:                "metrics.k8s.io",
			Version:              "v1beta1",
			CABundle:             caPEM,
			GroupPriorityMinimum: 100,
			VersionPriority:      100,
		},
	}
	ac, err := aggregator.NewForConfig(cfg)
	if err != nil {
		return err
	}
	if _, err := ac.ApiregistrationV1().APIServices().Create(ctx, apisvc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("metrics APIService: %w", err)
	}
	return nil
}

// metricsReady reports whether metrics.k8s.io is Available and serves usage
// for all nodes (metrics-server needs two scrapes before it has CPU rates).
func metricsReady(ctx context.Context, cfg *rest.Config, cs kubernetes.Interface, nodes int) (bool, string) {
	ac, err := aggregator.NewForConfig(cfg)
	if err != nil {
		return false, err.Error()
	}
	as, err := ac.ApiregistrationV1().APIServices().Get(ctx, "v1beta1.metrics.k8s.io", metav1.GetOptions{})
	if err != nil {
		return false, err.Error()
	}
	available := false
	msg := "no Available condition"
	for _, cond := range as.Status.Conditions {
		if cond.Type == apiregv1.Available {
			available = cond.Status == apiregv1.ConditionTrue
			msg = "APIService: " + cond.Reason + ": " + cond.Message
		}
	}
	if !available {
		return false, msg
	}
	var list struct {
		Items []struct{} `json:"items"`
	}
	raw, err := cs.CoreV1().RESTClient().Get().AbsPath("/apis/metrics.k8s.io/v1beta1/nodes").DoRaw(ctx)
	if err == nil {
		err = json.Unmarshal(raw, &list)
	}
	if err != nil {
		return false, "node metrics: " + err.Error()
	}
	if len(list.Items) < nodes {
		return false, fmt.Sprintf("node metrics for %d/%d nodes", len(list.Items), nodes)
	}
	return true, ""
}

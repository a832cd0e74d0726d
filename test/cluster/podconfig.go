package main

// Pod-annotation controller: lets tests control what kwok does for a single
// pod by setting annotations on it (usually in the pod template). It turns
//
//	pilothouse.dev/logs: "line 1\nline 2"          (all containers)
//	pilothouse.dev/logs.CONTAINER: "..."            (one container)
//	pilothouse.dev/previous-logs: "..."            (kubectl logs --previous)
//	pilothouse.dev/logs-file: /abs/path.log        (CRI-format file, e.g. to append to)
//	pilothouse.dev/exec-workdir: /some/dir         (cwd of `kubectl exec` commands)
//	pilothouse.dev/forward: 127.0.0.1:8080         (all pod ports)
//	pilothouse.dev/forward-80: 127.0.0.1:8080      (one pod port)
//
// into kwok's per-pod Logs / Exec / PortForward objects (named like the pod,
// owned by it so they are garbage collected with it). Pods without these
// annotations use the cluster-wide defaults from kwok.yaml.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/yaml"

	kwokcrd "sigs.k8s.io/kwok/kustomize/crd"
	kwokv1 "sigs.k8s.io/kwok/pkg/apis/v1alpha1"
	kwokclient "sigs.k8s.io/kwok/pkg/client/clientset/versioned"
)

const (
	annPrefix       = "pilothouse.dev/"
	annLogs         = annPrefix + "logs"
	annPreviousLogs = annPrefix + "previous-logs"
	annLogsFile     = annPrefix + "logs-file"
	annExecWorkdir  = annPrefix + "exec-workdir"
	annForward      = annPrefix + "forward"
	managedLabel    = "pilothouse.dev/managed-by"
	managedValue    = "testcluster"
)

func createKwokCRDs(ctx context.Context, c *cluster, ac apiextclient.Interface) error {
	raw := map[string][]byte{
		"Logs": kwokcrd.Logs, "Exec": kwokcrd.Exec, "PortForward": kwokcrd.PortForward,
		"Attach": kwokcrd.Attach, "ResourceUsage": kwokcrd.ResourceUsage,
	}
	var names []string
	for _, kind := range kwokEnableCRDs {
		var crd apiextv1.CustomResourceDefinition
		if err := yaml.Unmarshal(raw[kind], &crd); err != nil {
			return fmt.Errorf("decode CRD %s: %w", kind, err)
		}
		if _, err := ac.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, &crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("create CRD %s: %w", crd.Name, err)
		}
		names = append(names, crd.Name)
	}
	return c.waitFor(ctx, "kwok CRDs established", 60*time.Second, func(ctx context.Context) (bool, string) {
		for _, n := range names {
			crd, err := ac.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, n, metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			ok := false
			for _, cond := range crd.Status.Conditions {
				if cond.Type == apiextv1.Established && cond.Status == apiextv1.ConditionTrue {
					ok = true
				}
			}
			if !ok {
				return false, n + " not established"
			}
		}
		return true, ""
	})
}

type podConfig struct {
	c     *cluster
	kube  kubernetes.Interface
	kwok  kwokclient.Interface
	pods  cache.Indexer
	queue workqueue.TypedRateLimitingInterface[string]

	mu      sync.Mutex
	written map[string]string // log file path -> content last written
}

func startPodConfigController(ctx context.Context, c *cluster, cfg *rest.Config) error {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	kc, err := kwokclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactory(kube, 0)
	inf := factory.Core().V1().Pods().Informer()
	pc := &podConfig{c: c, kube: kube, kwok: kc, pods: inf.GetIndexer(), written: map[string]string{},
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
	enqueue := func(obj any) {
		if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
			pc.queue.Add(key)
		}
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
		DeleteFunc: enqueue,
	}); err != nil {
		return err
	}
	stopCtx, stop := context.WithCancel(context.Background())
	c.stopController = func() {
		stop()
		pc.queue.ShutDown()
		factory.Shutdown()
	}
	factory.Start(stopCtx.Done())
	go func() {
		for pc.next() {
		}
	}()
	return nil
}

func (pc *podConfig) next() bool {
	key, quit := pc.queue.Get()
	if quit {
		return false
	}
	defer pc.queue.Done(key)
	if err := pc.sync(context.Background(), key); err != nil {
		utilruntime.HandleError(fmt.Errorf("pod config %s: %w", key, err))
		pc.queue.AddRateLimited(key)
		return true
	}
	pc.queue.Forget(key)
	return true
}

func (pc *podConfig) sync(ctx context.Context, key string) error {
	ns, name, _ := cache.SplitMetaNamespaceKey(key)
	podDir := filepath.Join(pc.c.dir, "podlogs", ns, name)
	obj, exists, err := pc.pods.GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		_ = os.RemoveAll(podDir)
		return nil // kwok objects are owned by the pod: the GC removes them
	}
	pod := obj.(*corev1.Pod)
	ann := pod.Annotations
	owner := metav1.ObjectMeta{
		Name: name, Namespace: ns,
		Labels:          map[string]string{managedLabel: managedValue},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: pod.UID}},
	}

	// Logs: once any logs annotation is set, every container gets an entry
	// (unannotated ones fall back to logs-file or the default log).
	var logs []kwokv1.Log
	anyLogs := false
	for k := range ann {
		if k == annLogs || k == annPreviousLogs || k == annLogsFile || strings.HasPrefix(k, annLogs+".") {
			anyLogs = true
		}
	}
	containers := append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...)
	for _, ctr := range containers {
		if !anyLogs {
			break
		}
		l := kwokv1.Log{Containers: []string{ctr.Name}, Follow: new(true)}
		text, ok := ann[annLogs+"."+ctr.Name]
		if !ok {
			text, ok = ann[annLogs]
		}
		if ok {
			p := filepath.Join(podDir, ctr.Name+".log")
			if err := pc.writeOnce(p, text); err != nil {
				return err
			}
			l.LogsFile = &p
		} else if file, hasFile := ann[annLogsFile]; hasFile {
			l.LogsFile = &file
		} else {
			p := filepath.Join(pc.c.dir, "podlogs", "default.log")
			l.LogsFile = &p
		}
		if prev, hasPrev := ann[annPreviousLogs]; hasPrev {
			p := filepath.Join(podDir, ctr.Name+".previous.log")
			if err := pc.writeOnce(p, prev); err != nil {
				return err
			}
			l.PreviousLogsFile = &p
		}
		logs = append(logs, l)
	}
	if err := pc.upsertLogs(ctx, owner, logs); err != nil {
		return err
	}

	// Exec.
	var execs []kwokv1.ExecTarget
	if wd, ok := ann[annExecWorkdir]; ok {
		_ = os.MkdirAll(wd, 0o755)
		execs = []kwokv1.ExecTarget{{Local: &kwokv1.ExecTargetLocal{WorkDir: wd, Envs: []kwokv1.EnvVar{
			{Name: "POD_NAME", Value: pod.Name}, {Name: "POD_NAMESPACE", Value: pod.Namespace},
			{Name: "TESTCLUSTER_DIR", Value: pc.c.dir},
		}}}}
	}
	if err := pc.upsertExec(ctx, owner, execs); err != nil {
		return err
	}

	// PortForward.
	var forwards []kwokv1.Forward
	var keys []string
	for k := range ann {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !strings.HasPrefix(k, annForward) {
			continue
		}
		target, err := parseHostPort(ann[k])
		if err != nil {
			return fmt.Errorf("annotation %s: %w", k, err)
		}
		f := kwokv1.Forward{Target: target}
		if rest := strings.TrimPrefix(k, annForward); rest != "" {
			port, err := strconv.Atoi(strings.TrimPrefix(rest, "-"))
			if err != nil || !strings.HasPrefix(rest, "-") {
				continue
			}
			f.Ports = []int32{int32(port)}
		}
		forwards = append(forwards, f)
	}
	if _, all := ann[annForward]; !all && len(forwards) > 0 {
		// Other ports keep the cluster default target.
		forwards = append(forwards, kwokv1.Forward{Target: &kwokv1.ForwardTarget{Address: "127.0.0.1", Port: int32(pc.c.ports.forward)}})
	}
	return pc.upsertPortForward(ctx, owner, forwards)
}

func parseHostPort(s string) (*kwokv1.ForwardTarget, error) {
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return nil, fmt.Errorf("want HOST:PORT, got %q", s)
	}
	port, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return nil, fmt.Errorf("want HOST:PORT, got %q", s)
	}
	host := strings.Trim(s[:i], "[]")
	if host == "" {
		host = "127.0.0.1"
	}
	return &kwokv1.ForwardTarget{Address: host, Port: int32(port)}, nil
}

// writeOnce writes text (one log line per "\n"-separated line) in CRI log
// format, only when it changed since the last write.
func (pc *podConfig) writeOnce(path, text string) error {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if prev, ok := pc.written[path]; ok && prev == text {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if err := os.WriteFile(path, criLog(time.Now(), lines), 0o644); err != nil {
		return err
	}
	pc.written[path] = text
	return nil
}

func ours(m metav1.ObjectMeta) bool { return m.Labels[managedLabel] == managedValue }

func (pc *podConfig) upsertLogs(ctx context.Context, meta metav1.ObjectMeta, logs []kwokv1.Log) error {
	cl := pc.kwok.KwokV1alpha1().Logs(meta.Namespace)
	cur, err := cl.Get(ctx, meta.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		if len(logs) == 0 {
			return nil
		}
		_, err = cl.Create(ctx, &kwokv1.Logs{ObjectMeta: meta, Spec: kwokv1.LogsSpec{Logs: logs}}, metav1.CreateOptions{})
		return err
	case err != nil:
		return err
	case !ours(cur.ObjectMeta):
		return nil
	case len(logs) == 0:
		return cl.Delete(ctx, meta.Name, metav1.DeleteOptions{})
	case !equality.Semantic.DeepEqual(cur.Spec.Logs, logs):
		cur.Spec.Logs = logs
		_, err = cl.Update(ctx, cur, metav1.UpdateOptions{})
		return err
	}
	return nil
}

func (pc *podConfig) upsertExec(ctx context.Context, meta metav1.ObjectMeta, execs []kwokv1.ExecTarget) error {
	cl := pc.kwok.KwokV1alpha1().Execs(meta.Namespace)
	cur, err := cl.Get(ctx, meta.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		if len(execs) == 0 {
			return nil
		}
		_, err = cl.Create(ctx, &kwokv1.Exec{ObjectMeta: meta, Spec: kwokv1.ExecSpec{Execs: execs}}, metav1.CreateOptions{})
		return err
	case err != nil:
		return err
	case !ours(cur.ObjectMeta):
		return nil
	case len(execs) == 0:
		return cl.Delete(ctx, meta.Name, metav1.DeleteOptions{})
	case !equality.Semantic.DeepEqual(cur.Spec.Execs, execs):
		cur.Spec.Execs = execs
		_, err = cl.Update(ctx, cur, metav1.UpdateOptions{})
		return err
	}
	return nil
}

func (pc *podConfig) upsertPortForward(ctx context.Context, meta metav1.ObjectMeta, forwards []kwokv1.Forward) error {
	cl := pc.kwok.KwokV1alpha1().PortForwards(meta.Namespace)
	cur, err := cl.Get(ctx, meta.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		if len(forwards) == 0 {
			return nil
		}
		_, err = cl.Create(ctx, &kwokv1.PortForward{ObjectMeta: meta, Spec: kwokv1.PortForwardSpec{Forwards: forwards}}, metav1.CreateOptions{})
		return err
	case err != nil:
		return err
	case !ours(cur.ObjectMeta):
		return nil
	case len(forwards) == 0:
		return cl.Delete(ctx, meta.Name, metav1.DeleteOptions{})
	case !equality.Semantic.DeepEqual(cur.Spec.Forwards, forwards):
		cur.Spec.Forwards = forwards
		_, err = cl.Update(ctx, cur, metav1.UpdateOptions{})
		return err
	}
	return nil
}

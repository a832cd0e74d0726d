package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

type ports struct {
	etcd, etcdPeer, apiserver, kcm, scheduler, kwok, metrics, forward int
}

type cluster struct {
	dir             string
	nodes           int
	verbosity       int
	ports           ports
	pki             *pki
	kubeconfig      string // token based, for users/tests
	adminKubeconfig string // client-cert based, for components
	self            string
	logs            *log.Logger

	stopController context.CancelFunc

	mu    sync.Mutex
	procs []*proc
	died  chan *proc
}

type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
	err  error
}

func runUp(args []string) int {
	fs := flag.NewFlagSet("up", flag.ContinueOnError)
	dir := fs.String("dir", "", "state directory (required): kubeconfig, pki, etcd data, logs")
	nodes := fs.Int("nodes", 2, "number of fake (kwok) nodes, named kwok-node-0..N-1")
	v := fs.Int("v", 0, "log verbosity of the components")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up if not ready within this time")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "up: --dir is required")
		return 2
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c := &cluster{dir: abs, nodes: *nodes, verbosity: *v, self: self, died: make(chan *proc, 16),
		logs: log.New(os.Stderr, "testcluster: ", log.Ltime|log.Lmicroseconds)}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()

	start := time.Now()
	readyCtx, cancel := context.WithTimeout(ctx, *timeout)
	err = c.start(readyCtx)
	cancel()
	if err != nil {
		c.logs.Printf("start failed after %s: %v", time.Since(start).Round(time.Millisecond), err)
		c.shutdown()
		return 1
	}
	c.logs.Printf("ready after %s", time.Since(start).Round(time.Millisecond))
	fmt.Printf("ready kubeconfig=%s\n", c.kubeconfig)
	_ = os.Stdout.Sync()

	code := 0
	select {
	case <-ctx.Done():
		c.logs.Printf("signal received, stopping")
	case p := <-c.died:
		c.logs.Printf("component %s exited unexpectedly (%v); see %s", p.name, p.err, p.log)
		code = 1
	}
	c.shutdown()
	return code
}

func (c *cluster) start(ctx context.Context) error {
	for _, sub := range []string{"etcd", "pki", "podlogs", "exec"} {
		if err := os.RemoveAll(filepath.Join(c.dir, sub)); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(c.dir, "logs"), 0o755); err != nil {
		return err
	}

	// Ports: the port-forward default target keeps its listener; the others
	// are picked free now and bound by the components a moment later.
	fwd, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	c.ports.forward = fwd.Addr().(*net.TCPAddr).Port
	go serveForwardTarget(fwd)
	free, err := freePorts(7)
	if err != nil {
		return err
	}
	c.ports.etcd, c.ports.etcdPeer, c.ports.apiserver, c.ports.kcm, c.ports.scheduler, c.ports.kwok, c.ports.metrics =
		free[0], free[1], free[2], free[3], free[4], free[5], free[6]
	c.logs.Printf("dir=%s ports: apiserver=%d etcd=%d kwok=%d metrics-server=%d forward-target=%d",
		c.dir, c.ports.apiserver, c.ports.etcd, c.ports.kwok, c.ports.metrics, c.ports.forward)

	if c.pki, err = genPKI(filepath.Join(c.dir, "pki")); err != nil {
		return fmt.Errorf("pki: %w", err)
	}
	if err := c.writeKubeconfigs(); err != nil {
		return err
	}

	// etcd
	if err := c.spawn("etcd", "--data-dir="+filepath.Join(c.dir, "etcd"),
		fmt.Sprintf("--client-port=%d", c.ports.etcd), fmt.Sprintf("--peer-port=%d", c.ports.etcdPeer)); err != nil {
		return err
	}
	if err := c.waitFor(ctx, "etcd", 60*time.Second, func(ctx context.Context) (bool, string) {
		return httpOK(ctx, http.DefaultClient, fmt.Sprintf("http://127.0.0.1:%d/health", c.ports.etcd))
	}); err != nil {
		return err
	}

	// kube-apiserver
	if err := c.spawn("kube-apiserver", c.apiserverArgs()...); err != nil {
		return err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", c.kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = 100, 200
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	if err := c.waitFor(ctx, "kube-apiserver /readyz", 120*time.Second, func(ctx context.Context) (bool, string) {
		raw, err := cs.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
		if err != nil {
			return false, err.Error()
		}
		return strings.TrimSpace(string(raw)) == "ok", string(raw)
	}); err != nil {
		return err
	}

	// Objects the other components rely on.
	if err := installKwokCRDs(ctx, c, cfg); err != nil {
		return err
	}
	if err := registerMetricsAPI(ctx, c, cfg, cs); err != nil {
		return err
	}
	if err := createNodes(ctx, cs, c.nodes); err != nil {
		return err
	}
	kwokConfig, err := writeKwokConfig(c)
	if err != nil {
		return err
	}

	// The rest of the control plane.
	if err := c.spawn("kube-controller-manager", c.controllerManagerArgs()...); err != nil {
		return err
	}
	if err := c.spawn("kube-scheduler", c.schedulerArgs()...); err != nil {
		return err
	}
	if err := c.spawn("kwok", c.kwokArgs(kwokConfig)...); err != nil {
		return err
	}
	if err := c.spawn("metrics-server", metricsServerArgs(c)...); err != nil {
		return err
	}
	if err := startPodConfigController(ctx, c, cfg); err != nil {
		return err
	}

	// Ready = nodes Ready, default service account, metrics API serving.
	if err := c.waitFor(ctx, "nodes Ready", 120*time.Second, func(ctx context.Context) (bool, string) {
		nl, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err.Error()
		}
		ready := 0
		for _, n := range nl.Items {
			for _, cond := range n.Status.Conditions {
				if cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue {
					ready++
				}
			}
		}
		return ready >= c.nodes, fmt.Sprintf("%d/%d nodes Ready", ready, c.nodes)
	}); err != nil {
		return err
	}
	if err := c.waitFor(ctx, "default service account", 120*time.Second, func(ctx context.Context) (bool, string) {
		_, err := cs.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return true, ""
	}); err != nil {
		return err
	}
	return c.waitFor(ctx, "metrics.k8s.io", 120*time.Second, func(ctx context.Context) (bool, string) {
		return metricsReady(ctx, cfg, cs, c.nodes)
	})
}

func (c *cluster) apiserverArgs() []string {
	p := c.pki
	return []string{
		fmt.Sprintf("--etcd-servers=http://127.0.0.1:%d", c.ports.etcd),
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", c.ports.apiserver),
		"--tls-cert-file=" + p.ServingCert,
		"--tls-private-key-file=" + p.ServingKey,
		"--client-ca-file=" + p.CACert,
		"--token-auth-file=" + p.TokenFile,
		"--authorization-mode=Node,RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + p.SAPub,
		"--service-account-signing-key-file=" + p.SAKey,
		"--service-cluster-ip-range=10.96.0.0/16",
		"--allow-privileged=true",
		"--kubelet-client-certificate=" + p.AdminCert,
		"--kubelet-client-key=" + p.AdminKey,
		"--kubelet-certificate-authority=" + p.CACert,
		"--kubelet-preferred-address-types=InternalIP",
		// Aggregation layer (metrics.k8s.io).
		"--proxy-client-cert-file=" + p.FrontProxyCert,
		"--proxy-client-key-file=" + p.FrontProxyKey,
		"--requestheader-client-ca-file=" + p.FrontProxyCACert,
		"--requestheader-allowed-names=front-proxy-client",
		"--requestheader-username-headers=X-Remote-User",
		"--requestheader-group-headers=X-Remote-Group",
		"--requestheader-extra-headers-prefix=X-Remote-Extra-",
		"--enable-aggregator-routing=false",
		"--profiling=false",
		fmt.Sprintf("--v=%d", c.verbosity),
	}
}

func (c *cluster) controllerManagerArgs() []string {
	p := c.pki
	return []string{
		"--kubeconfig=" + c.adminKubeconfig,
		"--authentication-kubeconfig=" + c.adminKubeconfig,
		"--authorization-kubeconfig=" + c.adminKubeconfig,
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", c.ports.kcm),
		"--leader-elect=false",
		"--use-service-account-credentials=true",
		"--service-account-private-key-file=" + p.SAKey,
		"--root-ca-file=" + p.CACert,
		"--cluster-signing-cert-file=" + p.CACert,
		"--cluster-signing-key-file=" + p.CAKey,
		"--service-cluster-ip-range=10.96.0.0/16",
		"--profiling=false",
		fmt.Sprintf("--v=%d", c.verbosity),
	}
}

func (c *cluster) schedulerArgs() []string {
	return []string{
		"--kubeconfig=" + c.adminKubeconfig,
		"--authentication-kubeconfig=" + c.adminKubeconfig,
		"--authorization-kubeconfig=" + c.adminKubeconfig,
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", c.ports.scheduler),
		"--leader-elect=false",
		"--profiling=false",
		fmt.Sprintf("--v=%d", c.verbosity),
	}
}

func (c *cluster) kwokArgs(config string) []string {
	return []string{
		"--kubeconfig=" + c.adminKubeconfig,
		"--config=" + config,
		// Only the fake nodes (createNodes annotates them); a real node
		// joined by `testcluster node up` has its own kubelet.
		"--manage-all-nodes=false",
		"--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
		"--node-ip=127.0.0.1",
		fmt.Sprintf("--node-port=%d", c.ports.kwok),
		fmt.Sprintf("--server-address=127.0.0.1:%d", c.ports.kwok),
		"--tls-cert-file=" + c.pki.ServingCert,
		"--tls-private-key-file=" + c.pki.ServingKey,
		"--cidr=10.244.0.0/16",
		"--node-lease-duration-seconds=40",
		"--enable-crds=" + strings.Join(kwokEnableCRDs, ","),
		// kwok logs every pod/node patch at INFO and a WARN per scrape for
		// nodes without pods; keep its log small unless asked (--v >= 1).
		"--v=" + map[bool]string{true: "ERROR", false: "INFO"}[c.verbosity == 0],
	}
}

func (c *cluster) writeKubeconfigs() error {
	ca, err := os.ReadFile(c.pki.CACert)
	if err != nil {
		return err
	}
	server := fmt.Sprintf("https://127.0.0.1:%d", c.ports.apiserver)
	mk := func(auth *clientcmdapi.AuthInfo) *clientcmdapi.Config {
		cfg := clientcmdapi.NewConfig()
		cfg.Clusters["testcluster"] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: ca}
		cfg.AuthInfos["admin"] = auth
		cfg.Contexts["testcluster"] = &clientcmdapi.Context{Cluster: "testcluster", AuthInfo: "admin", Namespace: "default"}
		cfg.CurrentContext = "testcluster"
		return cfg
	}
	c.kubeconfig = filepath.Join(c.dir, "kubeconfig")
	c.adminKubeconfig = filepath.Join(c.dir, "pki", "admin.kubeconfig")
	if err := clientcmd.WriteToFile(*mk(&clientcmdapi.AuthInfo{Token: c.pki.Token}), c.kubeconfig); err != nil {
		return err
	}
	return clientcmd.WriteToFile(*mk(&clientcmdapi.AuthInfo{ClientCertificate: c.pki.AdminCert, ClientKey: c.pki.AdminKey}), c.adminKubeconfig)
}

// spawn starts `testcluster component NAME ARGS...` with output to DIR/logs/NAME.log.
func (c *cluster) spawn(name string, args ...string) error {
	logPath := filepath.Join(c.dir, "logs", name+".log")
	lf, err := os.Create(logPath)
	if err != nil {
		return err
	}
	cmd := exec.Command(c.self, append([]string{"component", name}, args...)...)
	cmd.Stdout, cmd.Stderr = lf, lf
	cmd.Dir = c.dir
	// Own process group (so a terminal's Ctrl-C reaches only us and we stop
	// things in order); die with the parent even if it is SIGKILLed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		lf.Close()
		return fmt.Errorf("start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	c.mu.Lock()
	c.procs = append(c.procs, p)
	c.mu.Unlock()
	c.logs.Printf("started %s (pid %d), log %s", name, cmd.Process.Pid, logPath)
	go func() {
		p.err = cmd.Wait()
		lf.Close()
		close(p.done)
		select {
		case c.died <- p:
		default:
		}
	}()
	return nil
}

// shutdown stops components in three phases, each with SIGTERM to the
// process group and SIGKILL after a grace period: first everything holding
// watches on the apiserver (including our own controller), so that the
// apiserver's graceful shutdown need not wait for open connections, then
// kube-apiserver, then etcd.
func (c *cluster) shutdown() {
	if c.stopController != nil {
		c.stopController()
	}
	c.mu.Lock()
	procs := append([]*proc(nil), c.procs...)
	c.mu.Unlock()
	phase := map[string]int{"kube-apiserver": 1, "etcd": 2}
	groups := make([][]*proc, 3)
	for _, p := range procs {
		groups[phase[p.name]] = append(groups[phase[p.name]], p)
	}
	for _, ps := range groups {
		for _, p := range ps {
			_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
		}
		deadline := time.After(15 * time.Second)
		for _, p := range ps {
			select {
			case <-p.done:
			case <-deadline:
			}
		}
		for _, p := range ps {
			select {
			case <-p.done:
			default:
				c.logs.Printf("%s did not stop in time, killing", p.name)
				_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
				<-p.done
			}
		}
	}
	c.logs.Printf("stopped")
}

// waitFor polls check until it succeeds, ctx ends, the timeout passes or a
// component dies.
func (c *cluster) waitFor(ctx context.Context, what string, timeout time.Duration, check func(context.Context) (bool, string)) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	last := ""
	for {
		cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
		ok, msg := check(cctx)
		ccancel()
		if ok {
			c.logs.Printf("%s: ok after %s", what, time.Since(start).Round(time.Millisecond))
			return nil
		}
		last = msg
		select {
		case p := <-c.died:
			return fmt.Errorf("waiting for %s: component %s exited (%v):\n%s", what, p.name, p.err, tail(p.log, 30))
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w (last: %s)", what, ctx.Err(), last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func httpOK(ctx context.Context, hc *http.Client, url string) (bool, string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := hc.Do(req)
	if err != nil {
		return false, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode == http.StatusOK, string(b)
}

func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var out []int
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}

func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// serveForwardTarget is the default port-forward target of every pod port:
// a tiny HTTP server answering any request with a fixed body.
func serveForwardTarget(l net.Listener) {
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "testcluster port-forward default target: %s %s\n", r.Method, r.URL.Path)
	}), ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Printf("forward target: %v", err)
	}
}

// installKwokCRDs creates the CRDs of the per-pod kwok kinds and waits until
// they are established.
func installKwokCRDs(ctx context.Context, c *cluster, cfg *rest.Config) error {
	ac, err := apiextclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	return createKwokCRDs(ctx, c, ac)
}

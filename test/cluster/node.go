package main

// `testcluster node up|down|cleanup --dir DIR`: one real node joined to the
// cluster that `testcluster up --dir DIR` runs. containerd and runc (from the
// machine), kubelet and kube-proxy (built beside testcluster from this
// module), bridge + host-local CNI, certificates from DIR/pki's CA, a local
// storage provisioner (node_storage.go) and a pause image built here
// (node_image.go). Everything lives in DIR/node, the cgroup /pilothouse-node,
// the bridge phnode0 and iptables chains named KUBE-*/CNI-*; `cleanup`
// (node_cleanup.go) removes all of it. Only one real node fits a machine
// (port 10250, cgroups and iptables are machine-wide).

import (
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

const (
	nodeName       = "real-node"
	nodeLabel      = "node.pilothouse.dev/real"
	nodeCgroup     = "pilothouse-node"
	nodeBridge     = "phnode0"
	nodePodCIDR    = "10.88.0.0/16"
	nodeCNIName    = "pilothouse-node"
	nodePauseImage = "pilothouse.dev/pause:1"
)

type realNode struct {
	dir     string // cluster dir
	home    string // DIR/node
	bin     string // directory of kubelet, kube-proxy, pause
	ip      string
	image   string // optional OCI archive imported into containerd
	logs    *log.Logger
	cs      kubernetes.Interface
	procs   []*exec.Cmd
	died    chan string
	apiPort int
}

func runNode(args []string) int {
	if len(args) < 1 {
		fmt.Fprintln(os.Stderr, "usage: testcluster node up|down|cleanup --dir DIR [--image FILE]")
		return 2
	}
	fs := flag.NewFlagSet("node", flag.ContinueOnError)
	dir := fs.String("dir", "", "state directory of the running cluster (required)")
	image := fs.String("image", "", "OCI image archive to import into the node's containerd (skipped when absent)")
	timeout := fs.Duration("timeout", 4*time.Minute, "give up if the node is not Ready within this time")
	if err := fs.Parse(args[1:]); err != nil || *dir == "" {
		fmt.Fprintln(os.Stderr, "node: --dir is required")
		return 2
	}
	abs, _ := filepath.Abs(*dir)
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	n := &realNode{dir: abs, home: filepath.Join(abs, "node"), bin: filepath.Dir(self), image: *image,
		died: make(chan string, 8), logs: log.New(os.Stderr, "testcluster node: ", log.Ltime|log.Lmicroseconds)}
	switch args[0] {
	case "up":
		return n.up(*timeout)
	case "down", "cleanup":
		n.deleteAPIObjects()
		if err := n.cleanup(); err != nil {
			n.logs.Printf("cleanup: %v", err)
			return 1
		}
		return 0
	default:
		fmt.Fprintf(os.Stderr, "node: unknown command %q\n", args[0])
		return 2
	}
}

func (n *realNode) up(timeout time.Duration) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	// A previous run that was killed may have left state behind.
	if err := n.cleanup(); err != nil {
		n.logs.Printf("cleanup before start: %v", err)
		return 1
	}
	start := time.Now()
	readyCtx, cancel := context.WithTimeout(ctx, timeout)
	err := n.start(readyCtx)
	cancel()
	if err != nil {
		n.logs.Printf("start failed after %s: %v", time.Since(start).Round(time.Millisecond), err)
		n.stop()
		return 1
	}
	n.logs.Printf("node %s Ready after %s", nodeName, time.Since(start).Round(time.Millisecond))
	fmt.Printf("ready node=%s\n", nodeName)
	_ = os.Stdout.Sync()
	code := 0
	select {
	case <-ctx.Done():
		n.logs.Printf("signal received, stopping")
	case name := <-n.died:
		n.logs.Printf("%s exited unexpectedly; see %s", name, n.logFile(name))
		code = 1
	}
	n.stop()
	return code
}

// stop removes the node's API objects, then everything on the machine.
func (n *realNode) stop() {
	n.deleteAPIObjects()
	if err := n.cleanup(); err != nil {
		n.logs.Printf("cleanup: %v", err)
	}
}

func (n *realNode) start(ctx context.Context) error {
	for _, d := range []string{"pki", "containerd", "cni/net.d", "cni/ipam", "kubelet", "pod-logs", "volumes", "runc"} {
		if err := os.MkdirAll(filepath.Join(n.home, d), 0o755); err != nil {
			return err
		}
	}
	if err := n.recordMachinePaths(); err != nil {
		return err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", filepath.Join(n.dir, "pki", "admin.kubeconfig"))
	if err != nil {
		return fmt.Errorf("cluster at %s: %w", n.dir, err)
	}
	if n.cs, err = kubernetes.NewForConfig(cfg); err != nil {
		return err
	}
	// The API server binds loopback but advertises the machine's address in
	// the kubernetes Service's endpoints; kube-proxy sends pods there, so
	// relay that address:port to loopback.
	if err := n.relayAPIServer(ctx, cfg.Host); err != nil {
		return err
	}
	if err := n.writeCerts(cfg.Host); err != nil {
		return err
	}
	if err := n.prepareHost(); err != nil {
		return err
	}
	if err := n.startContainerd(ctx); err != nil {
		return err
	}
	if err := n.startKubelet(); err != nil {
		return err
	}
	if err := n.startKubeProxy(); err != nil {
		return err
	}
	if err := startLocalPathProvisioner(ctx, n); err != nil {
		return err
	}
	return n.waitReady(ctx)
}

// relayAPIServer listens on the endpoint address of Service default/kubernetes
// and forwards each connection to the API server on loopback.
func (n *realNode) relayAPIServer(ctx context.Context, host string) error {
	_, port, err := net.SplitHostPort(strings.TrimPrefix(host, "https://"))
	if err != nil {
		return err
	}
	var ip string
	deadline := time.Now().Add(30 * time.Second)
	for ip == "" {
		ep, err := n.cs.CoreV1().Endpoints("default").Get(ctx, "kubernetes", metav1.GetOptions{})
		if err == nil && len(ep.Subsets) > 0 && len(ep.Subsets[0].Addresses) > 0 {
			ip = ep.Subsets[0].Addresses[0].IP
		} else if time.Now().After(deadline) {
			return fmt.Errorf("no endpoints of Service default/kubernetes: %v", err)
		} else {
			time.Sleep(500 * time.Millisecond)
		}
	}
	n.ip = ip
	fmt.Sscan(port, &n.apiPort)
	l, err := net.Listen("tcp", net.JoinHostPort(ip, port))
	if err != nil {
		return fmt.Errorf("relay for the kubernetes Service (%s is the API server's advertised address): %w", ip, err)
	}
	n.logs.Printf("node IP %s; relaying %s:%s to 127.0.0.1:%s", ip, ip, port, port)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go relay(c, "127.0.0.1:"+port)
		}
	}()
	return nil
}

func relay(c net.Conn, to string) {
	defer c.Close()
	u, err := net.DialTimeout("tcp", to, 5*time.Second)
	if err != nil {
		return
	}
	defer u.Close()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(u, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, u); done <- struct{}{} }()
	<-done
}

// writeCerts issues the kubelet's client and serving certs and kube-proxy's
// client cert from the cluster CA, and their kubeconfigs.
func (n *realNode) writeCerts(server string) error {
	ca, err := loadKeyPair(filepath.Join(n.dir, "pki", "ca.crt"), filepath.Join(n.dir, "pki", "ca.key"))
	if err != nil {
		return fmt.Errorf("cluster CA: %w", err)
	}
	pk := func(name string) string { return filepath.Join(n.home, "pki", name) }
	issue := []struct {
		name    string
		subject pkix.Name
		dns     []string
		ips     []net.IP
		usage   x509.ExtKeyUsage
	}{
		{"kubelet-client", pkix.Name{CommonName: "system:node:" + nodeName, Organization: []string{"system:nodes"}}, nil, nil, x509.ExtKeyUsageClientAuth},
		{"kubelet-serving", pkix.Name{CommonName: nodeName}, []string{nodeName, "localhost"}, []net.IP{net.ParseIP(n.ip), net.ParseIP("127.0.0.1")}, x509.ExtKeyUsageServerAuth},
		{"kube-proxy", pkix.Name{CommonName: "system:kube-proxy"}, nil, nil, x509.ExtKeyUsageClientAuth},
	}
	for _, i := range issue {
		kp, err := newCert(ca, i.subject, false, i.dns, i.ips, i.usage)
		if err != nil {
			return err
		}
		if err := writePEM(pk(i.name+".crt"), "CERTIFICATE", kp.cert.Raw); err != nil {
			return err
		}
		if err := writeKey(pk(i.name+".key"), kp.key); err != nil {
			return err
		}
	}
	caPEM, err := os.ReadFile(filepath.Join(n.dir, "pki", "ca.crt"))
	if err != nil {
		return err
	}
	for _, user := range []string{"kubelet-client", "kube-proxy"} {
		cfg := clientcmdapi.NewConfig()
		cfg.Clusters["testcluster"] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: caPEM}
		cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{ClientCertificate: pk(user + ".crt"), ClientKey: pk(user + ".key")}
		cfg.Contexts["default"] = &clientcmdapi.Context{Cluster: "testcluster", AuthInfo: user}
		cfg.CurrentContext = "default"
		if err := clientcmd.WriteToFile(*cfg, pk(user+".kubeconfig")); err != nil {
			return err
		}
	}
	return nil
}

func loadKeyPair(certFile, keyFile string) (*keyPair, error) {
	cb, err := os.ReadFile(certFile)
	if err != nil {
		return nil, err
	}
	kb, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, err
	}
	cblock, _ := pem.Decode(cb)
	kblock, _ := pem.Decode(kb)
	if cblock == nil || kblock == nil {
		return nil, errors.New("not PEM")
	}
	cert, err := x509.ParseCertificate(cblock.Bytes)
	if err != nil {
		return nil, err
	}
	key, err := x509.ParseECPrivateKey(kblock.Bytes)
	if err != nil {
		return nil, err
	}
	return &keyPair{cert: cert, key: (*ecdsa.PrivateKey)(key)}, nil
}

// prepareHost: sysctls the bridge CNI and kube-proxy need (their previous
// values are saved for cleanup) and the cgroup that holds every pod.
func (n *realNode) prepareHost() error {
	var saved strings.Builder
	for _, s := range nodeSysctls {
		p := filepath.Join("/proc/sys", s)
		old, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("sysctl %s: %w", s, err)
		}
		fmt.Fprintf(&saved, "%s %s\n", s, strings.TrimSpace(string(old)))
		if err := os.WriteFile(p, []byte("1"), 0o644); err != nil {
			return fmt.Errorf("sysctl %s=1: %w", s, err)
		}
	}
	if err := os.WriteFile(filepath.Join(n.home, "sysctl.saved"), []byte(saved.String()), 0o644); err != nil {
		return err
	}
	for _, h := range cgroupHierarchies() {
		d := filepath.Join(h, nodeCgroup)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("cgroup %s: %w", d, err)
		}
		if filepath.Base(h) == "cpuset" {
			for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
				v, err := os.ReadFile(filepath.Join(h, f))
				if err == nil {
					_ = os.WriteFile(filepath.Join(d, f), v, 0o644)
				}
			}
		}
	}
	return nil
}

var nodeSysctls = []string{"net/ipv4/ip_forward", "net/bridge/bridge-nf-call-iptables"}

// cgroupHierarchies lists the mounted cgroup v1 hierarchies (or the v2 root).
func cgroupHierarchies() []string {
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		return []string{"/sys/fs/cgroup"}
	}
	entries, _ := os.ReadDir("/sys/fs/cgroup")
	var out []string
	for _, e := range entries {
		// "unified" is the v2 hierarchy of a hybrid setup: runc creates
		// the pods' cgroups there too.
		if e.IsDir() {
			out = append(out, filepath.Join("/sys/fs/cgroup", e.Name()))
		}
	}
	return out
}

func (n *realNode) sock() string { return filepath.Join(n.home, "containerd", "containerd.sock") }

func (n *realNode) startContainerd(ctx context.Context) error {
	cfg := filepath.Join(n.home, "containerd", "config.toml")
	if err := os.WriteFile(cfg, []byte(containerdConfig(n.home)), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(n.home, "cni", "net.d", "10-"+nodeCNIName+".conflist"), []byte(cniConfig(n.home)), 0o644); err != nil {
		return err
	}
	if err := n.spawn("containerd", "containerd", "--config", cfg); err != nil {
		return err
	}
	if err := n.waitFor(ctx, "containerd", func() bool {
		return exec.CommandContext(ctx, "ctr", "--address", n.sock(), "version").Run() == nil
	}); err != nil {
		return err
	}
	pause := filepath.Join(n.home, "pause-image.tar")
	if err := writePauseImage(filepath.Join(n.bin, "pause"), pause); err != nil {
		return fmt.Errorf("pause image: %w", err)
	}
	if err := n.importImage(ctx, pause); err != nil {
		return err
	}
	if n.image == "" {
		return nil
	}
	if _, err := os.Stat(n.image); err != nil {
		n.logs.Printf("no %s: not imported (make image builds it)", n.image)
		return nil
	}
	return n.importImage(ctx, n.image)
}

func (n *realNode) importImage(ctx context.Context, file string) error {
	start := time.Now()
	out, err := exec.CommandContext(ctx, "ctr", "--address", n.sock(), "-n", "k8s.io", "images", "import",
		"--no-unpack=false", "--all-platforms", file).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ctr images import %s: %v: %s", file, err, out)
	}
	n.logs.Printf("imported %s in %s: %s", file, time.Since(start).Round(time.Millisecond), strings.TrimSpace(string(out)))
	return nil
}

func containerdConfig(home string) string {
	return fmt.Sprintf(`version = 2
root = %[1]q
state = %[2]q
disabled_plugins = ["io.containerd.internal.v1.opt", "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp", "io.containerd.internal.v1.tracing"]

[grpc]
  address = %[3]q

[ttrpc]
  address = %[4]q

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = %[5]q
  # root here lacks CAP_SYS_RESOURCE: never lower a container's oom_score_adj.
  restrict_oom_score_adj = true
  disable_apparmor = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        Root = %[6]q
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = %[7]q
`, filepath.Join(home, "containerd", "root"), filepath.Join(home, "containerd", "state"),
		filepath.Join(home, "containerd", "containerd.sock"), filepath.Join(home, "containerd", "containerd.sock.ttrpc"),
		nodePauseImage, filepath.Join(home, "runc"), filepath.Join(home, "cni", "net.d"))
}

func cniConfig(home string) string {
	return fmt.Sprintf(`{
  "cniVersion": "1.0.0",
  "name": %q,
  "plugins": [
    {
      "type": "bridge",
      "bridge": %q,
      "isGateway": true,
      "ipMasq": true,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{"subnet": %q}]],
        "routes": [{"dst": "0.0.0.0/0"}],
        "dataDir": %q
      }
    }
  ]
}
`, nodeCNIName, nodeBridge, nodePodCIDR, filepath.Join(home, "cni", "ipam"))
}

func (n *realNode) startKubelet() error {
	pk := func(name string) string { return filepath.Join(n.home, "pki", name) }
	cfg := filepath.Join(n.home, "kubelet", "config.yaml")
	conf := fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
failSwapOn: false
cgroupDriver: cgroupfs
cgroupRoot: /%s
containerRuntimeEndpoint: unix://%s
imageServiceEndpoint: unix://%s
address: %s
port: 10250
readOnlyPort: 0
healthzPort: 0
tlsCertFile: %s
tlsPrivateKeyFile: %s
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: %s}
authorization:
  mode: Webhook
registerWithTaints:
- {key: %s, value: "true", effect: NoSchedule}
podLogsDir: %s
volumePluginDir: %s
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
maxPods: 30
serializeImagePulls: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: "50Mi", nodefs.available: "1%%", imagefs.available: "1%%", nodefs.inodesFree: "1%%"}
protectKernelDefaults: false
`, nodeCgroup, n.sock(), n.sock(), n.ip, pk("kubelet-serving.crt"), pk("kubelet-serving.key"),
		filepath.Join(n.dir, "pki", "ca.crt"), nodeLabel, filepath.Join(n.home, "pod-logs"),
		filepath.Join(n.home, "kubelet", "volume-plugins"))
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		return err
	}
	return n.spawn("kubelet", filepath.Join(n.bin, "kubelet"),
		"--config="+cfg,
		"--kubeconfig="+pk("kubelet-client.kubeconfig"),
		"--root-dir="+filepath.Join(n.home, "kubelet"),
		"--cert-dir="+filepath.Join(n.home, "kubelet", "pki"),
		"--hostname-override="+nodeName,
		"--node-ip="+n.ip,
		"--node-labels="+nodeLabel+"=true",
		"--v=1")
}

func (n *realNode) startKubeProxy() error {
	free, err := freePorts(2)
	if err != nil {
		return err
	}
	return n.spawn("kube-proxy", filepath.Join(n.bin, "kube-proxy"),
		"--kubeconfig="+filepath.Join(n.home, "pki", "kube-proxy.kubeconfig"),
		"--proxy-mode=iptables",
		"--hostname-override="+nodeName,
		"--cluster-cidr="+nodePodCIDR,
		// SNAT every Service connection: with it replies of pod -> Service ->
		// pod on the same bridge come back through the host.
		"--masquerade-all",
		"--iptables-localhost-nodeports=false",
		"--conntrack-max-per-core=0",
		"--conntrack-tcp-timeout-established=0",
		"--conntrack-tcp-timeout-close-wait=0",
		fmt.Sprintf("--healthz-bind-address=127.0.0.1:%d", free[0]),
		fmt.Sprintf("--metrics-bind-address=127.0.0.1:%d", free[1]),
		"--oom-score-adj=0", // root here lacks CAP_SYS_RESOURCE
		"--v=1")
}

func (n *realNode) waitReady(ctx context.Context) error {
	return n.waitFor(ctx, "node "+nodeName+" Ready", func() bool {
		node, err := n.cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return false
		}
		for _, c := range node.Status.Conditions {
			if c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue {
				return true
			}
		}
		return false
	})
}

// logFile: DIR/logs/node-NAME.log (kept after cleanup, for post-mortems).
func (n *realNode) logFile(name string) string {
	return filepath.Join(n.dir, "logs", "node-"+name+".log")
}

// spawn starts a node process with output to logFile(NAME); it dies
// with this process (Pdeathsig).
func (n *realNode) spawn(name, bin string, args ...string) error {
	lf, err := os.Create(n.logFile(name))
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = lf, lf
	cmd.Dir = n.home
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		lf.Close()
		return fmt.Errorf("start %s: %w", name, err)
	}
	if err := os.WriteFile(filepath.Join(n.home, name+".pid"), fmt.Appendf(nil, "%d\n", cmd.Process.Pid), 0o644); err != nil {
		return err
	}
	n.procs = append(n.procs, cmd)
	n.logs.Printf("started %s (pid %d)", name, cmd.Process.Pid)
	go func() {
		_ = cmd.Wait()
		lf.Close()
		select {
		case n.died <- name:
		default:
		}
	}()
	return nil
}

func (n *realNode) waitFor(ctx context.Context, what string, ok func() bool) error {
	start := time.Now()
	for !ok() {
		select {
		case name := <-n.died:
			return fmt.Errorf("waiting for %s: %s exited:\n%s", what, name, tail(n.logFile(name), 30))
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
	n.logs.Printf("%s: ok after %s", what, time.Since(start).Round(time.Millisecond))
	return nil
}

// deleteAPIObjects removes the Node and the StorageClass (best effort: the
// cluster may be gone already).
func (n *realNode) deleteAPIObjects() {
	cfg, err := clientcmd.BuildConfigFromFlags("", filepath.Join(n.dir, "pki", "admin.kubeconfig"))
	if err != nil {
		return
	}
	cfg.Timeout = 5 * time.Second
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = cs.CoreV1().Nodes().Delete(ctx, nodeName, metav1.DeleteOptions{})
	_ = cs.StorageV1().StorageClasses().Delete(ctx, storageClassName, metav1.DeleteOptions{})
	deleteProvisionedVolumes(ctx, cs)
}

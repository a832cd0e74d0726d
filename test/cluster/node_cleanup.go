package main

// cleanup removes everything `node up` set up on the machine, in an order
// that lets each step succeed: node processes, pod processes (containerd
// shims and everything in the cgroup /pilothouse-node), mounts, iptables
// chains, the bridge, sysctls, then DIR/node and the machine paths the node
// created. It is idempotent and runs before every `node up` too.

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// nodeMachinePaths are created by containerd, the CRI or libcni outside
// DIR/node (fixed paths); those that did not exist before `node up` are
// removed by cleanup (listed in DIR/node/created-paths).
var nodeMachinePaths = []string{"/run/containerd", "/var/lib/cni", "/var/log/containers", "/run/netns"}

func (n *realNode) recordMachinePaths() error {
	var missing []string
	for _, p := range nodeMachinePaths {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			missing = append(missing, p)
		}
	}
	return os.WriteFile(filepath.Join(n.home, "created-paths"), []byte(strings.Join(missing, "\n")+"\n"), 0o644)
}

func (n *realNode) cleanup() error {
	var errs []error
	for _, name := range []string{"kubelet", "kube-proxy"} {
		stopPidFile(filepath.Join(n.home, name+".pid"))
	}
	killShims(n.sock())
	errs = append(errs, killCgroup())
	stopPidFile(filepath.Join(n.home, "containerd.pid"))
	killShims(n.sock())
	errs = append(errs, n.unmountAll())
	errs = append(errs, cleanIptables())
	if _, err := os.Stat("/sys/class/net/" + nodeBridge); err == nil {
		if out, err := exec.Command("ip", "link", "del", nodeBridge).CombinedOutput(); err != nil {
			errs = append(errs, fmt.Errorf("ip link del %s: %v: %s", nodeBridge, err, out))
		}
	}
	errs = append(errs, n.restoreSysctls(), n.removeMachinePaths())
	if err := os.RemoveAll(n.home); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// stopPidFile: SIGTERM the process group, SIGKILL after 10 s.
func stopPidFile(path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	for i := 0; i < 100 && syscall.Kill(pid, 0) == nil && !isZombie(pid); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = os.Remove(path)
}

func isZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] == "Z"
}

// killShims kills the containerd shims serving our containerd (their command
// line names its socket); they outlive containerd by design.
func killShims(sock string) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		if len(args) == 0 || !strings.Contains(filepath.Base(args[0]), "containerd-shim") {
			continue
		}
		for i, a := range args {
			if a == "-address" && i+1 < len(args) && args[i+1] == sock {
				pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// killCgroup kills every process under /pilothouse-node and removes the
// cgroups (deepest first) in every hierarchy.
func killCgroup() error {
	var dirs []string
	for _, h := range cgroupHierarchies() {
		root := filepath.Join(h, nodeCgroup)
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
	}
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	var last error
	for attempt := 0; attempt < 50; attempt++ {
		last = nil
		for _, d := range dirs {
			if _, err := os.Stat(d); err != nil {
				continue
			}
			b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil && pid > 1 {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			if err := syscall.Rmdir(d); err != nil && !errors.Is(err, syscall.ENOENT) {
				last = fmt.Errorf("rmdir %s: %w", d, err)
			}
		}
		if last == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return last
}

// unmountAll detaches every mount under DIR/node and the CRI's network
// namespaces (/run/netns/cni-*), deepest first.
func (n *realNode) unmountAll() error {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	defer f.Close()
	var points []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		mp := unescapeMount(fields[4])
		if strings.HasPrefix(mp, n.home+"/") || strings.HasPrefix(mp, "/run/netns/cni-") || strings.HasPrefix(mp, "/var/run/netns/cni-") {
			points = append(points, mp)
		}
	}
	sort.Slice(points, func(i, j int) bool { return len(points[i]) > len(points[j]) })
	var errs []error
	for _, p := range points {
		if err := syscall.Unmount(p, syscall.MNT_DETACH); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOENT) {
			errs = append(errs, fmt.Errorf("umount %s: %w", p, err))
		}
	}
	netns, _ := filepath.Glob("/run/netns/cni-*")
	for _, p := range netns {
		_ = os.Remove(p)
	}
	return errors.Join(errs...)
}

// unescapeMount decodes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cleanIptables drops the chains kube-proxy, the kubelet and the bridge CNI
// plugin made (KUBE-*, CNI-*) and every rule that jumps to them, from the
// IPv4 and IPv6 filter, nat and mangle tables. Other rules stay.
func cleanIptables() error {
	var errs []error
	for _, tool := range []string{"iptables", "ip6tables"} {
		if _, err := exec.LookPath(tool + "-save"); err != nil {
			continue
		}
		for _, table := range []string{"filter", "nat", "mangle"} {
			out, err := exec.Command(tool+"-save", "-t", table).Output()
			if err != nil {
				continue // table or family not available
			}
			kept, changed := filterIptables(string(out))
			if !changed {
				continue
			}
			cmd := exec.Command(tool+"-restore", "-w")
			cmd.Stdin = strings.NewReader(kept)
			if b, err := cmd.CombinedOutput(); err != nil {
				errs = append(errs, fmt.Errorf("%s-restore %s: %v: %s", tool, table, err, b))
			}
		}
	}
	return errors.Join(errs...)
}

func nodeChain(s string) bool { return strings.HasPrefix(s, "KUBE-") || strings.HasPrefix(s, "CNI-") }

func filterIptables(save string) (string, bool) {
	var b strings.Builder
	changed := false
	for _, line := range strings.Split(save, "\n") {
		f := strings.Fields(line)
		drop := false
		switch {
		case len(f) > 0 && strings.HasPrefix(f[0], ":"):
			drop = nodeChain(strings.TrimPrefix(f[0], ":"))
		case len(f) > 1 && f[0] == "-A":
			drop = nodeChain(f[1])
			for i := 2; i+1 < len(f); i++ {
				if (f[i] == "-j" || f[i] == "-g") && nodeChain(f[i+1]) {
					drop = true
				}
			}
		}
		if drop {
			changed = true
			continue
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n", changed
}

func (n *realNode) restoreSysctls() error {
	b, err := os.ReadFile(filepath.Join(n.home, "sysctl.saved"))
	if err != nil {
		return nil
	}
	var errs []error
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		if err := os.WriteFile(filepath.Join("/proc/sys", f[0]), []byte(f[1]), 0o644); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (n *realNode) removeMachinePaths() error {
	b, err := os.ReadFile(filepath.Join(n.home, "created-paths"))
	if err != nil {
		return nil
	}
	var errs []error
	for _, p := range strings.Fields(string(b)) {
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

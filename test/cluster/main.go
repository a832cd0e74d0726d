// Command testcluster runs a small but real Kubernetes control plane for
// tests: embedded etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler, KWOK (fake nodes/pods with logs, exec, port-forward and
// resource usage) and metrics-server, all from Go modules in one binary.
//
//	testcluster up --dir DIR [--nodes N]
//	testcluster component NAME [ARGS...]   (internal: runs one component)
package main

import (
	"fmt"
	"os"
)

func usage() {
	fmt.Fprint(os.Stderr, `usage:
  testcluster up --dir DIR [--nodes N] [--v N]
      Start a cluster. Prints "ready kubeconfig=DIR/kubeconfig" on stdout once
      usable, then runs until SIGTERM/SIGINT.
  testcluster node up|down|cleanup --dir DIR [--image FILE]
      Join one real node (containerd, kubelet, kube-proxy) to the cluster in
      DIR; prints "ready node=real-node", runs until SIGTERM, then removes
      everything it set up. down/cleanup remove a node's leftovers.
  testcluster component NAME [ARGS...]
      Internal: run one component in this process
      (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, metrics-server).
`)
}

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	switch os.Args[1] {
	case "up":
		os.Exit(runUp(os.Args[2:]))
	case "node":
		os.Exit(runNode(os.Args[2:]))
	case "component":
		if len(os.Args) < 3 {
			usage()
			os.Exit(2)
		}
		os.Exit(runComponent(os.Args[2], os.Args[3:]))
	case "help", "-h", "--help":
		usage()
	default:
		fmt.Fprintf(os.Stderr, "unknown command %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
}

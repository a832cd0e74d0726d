//go:build tools

package main

// The real node's kubelet and kube-proxy are built from these upstream main
// packages (mk/cluster-node.mk), pinned by this module's k8s.io/kubernetes.
// The import keeps their dependencies in go.mod/go.sum.
import (
	_ "k8s.io/kubernetes/cmd/kube-proxy"
	_ "k8s.io/kubernetes/cmd/kubelet"
)

# A real node in the test cluster (test/cluster/node*.go, docs/development/testing.md, "A real node in the test cluster").
# Included by the top-level Makefile after mk/cluster.mk.
#
#   make cluster-node-build  build .tools/bin/kubelet, kube-proxy (k8s.io/kubernetes, pinned in
#                            test/cluster/go.mod) and the static pause binary of the sandbox image
#   make cluster-node        join one real node (containerd + runc from the machine) to the cluster
#                            that `make cluster` runs; imports build/pilothouse-image.tar when present
#   make cluster-node-down   remove it and everything it set up on the machine
#   make test-node           image, cluster, node, test/node/*.test.ts (serial), node down in a trap
#
# Needs root and containerd, runc, containernetworking-plugins, iptables (.ci/run installs them).
# Only one real node fits a machine (port 10250, cgroups, iptables are machine-wide).

NODE_IMAGE   ?= $(CLUSTER_ROOT)/build/pilothouse-image.tar
NODE_TIMEOUT ?= 300

.PHONY: cluster-node-build cluster-node cluster-node-down cluster-node-status test-node

cluster-node-build: cluster-build
	cd $(CLUSTER_SRC) && $(TOOLS_GO) build $(TOOLS_GOBUILD) -ldflags='-s -w $(call TOOLS_VERSION_LDFLAGS,$(CLUSTER_K8S_VERSION))' \
	  -o $(TOOLS_BIN)/ k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy
	cd $(CLUSTER_SRC) && CGO_ENABLED=0 $(TOOLS_GO) build $(TOOLS_GOBUILD) -ldflags='-s -w' -o $(TOOLS_BIN)/pause ./pause

cluster-node: cluster cluster-node-build
	@$(CLUSTER_SRC)/hack/node.sh up $(CLUSTER_BIN) $(CLUSTER_DIR) $(NODE_IMAGE) $(NODE_TIMEOUT)

cluster-node-down:
	@$(CLUSTER_SRC)/hack/node.sh down $(CLUSTER_BIN) $(CLUSTER_DIR)

cluster-node-status:
	@$(CLUSTER_SRC)/hack/node.sh status $(CLUSTER_DIR)

# The node is removed whatever happens (trap), and the cluster too when this target started it,
# so the machine is left as found.
test-node: deps build tools
	$(MAKE) --no-print-directory image
	$(MAKE) --no-print-directory cluster-node-build
	@started=; $(CLUSTER_SRC)/hack/cluster.sh status $(CLUSTER_DIR) >/dev/null 2>&1 || started=1; \
	  trap '$(MAKE) --no-print-directory cluster-node-down; [ -z "$$started" ] || $(MAKE) --no-print-directory cluster-down' EXIT; \
	  $(MAKE) --no-print-directory cluster-node && \
	  NODE_KUBECONFIG=$(CLUSTER_KUBECONFIG) npx vitest run --project node

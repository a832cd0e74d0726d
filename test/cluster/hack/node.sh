#!/usr/bin/env bash
# Background start/stop of the test cluster's real node (used by mk/cluster-node.mk).
#
#   hack/node.sh up     BIN CLUSTER_DIR [IMAGE_TAR] [TIMEOUT_SECONDS]
#   hack/node.sh down   BIN CLUSTER_DIR
#   hack/node.sh status CLUSTER_DIR
#
# CLUSTER_DIR gets node.pid and node.log (stdout+stderr of `testcluster node up`);
# the node's own state is CLUSTER_DIR/node (removed by down).
set -euo pipefail

running() { # CLUSTER_DIR -> 0 if the recorded process is alive and is testcluster
  local pidf="$1/node.pid" pid cmdline
  [[ -f "$pidf" ]] || return 1
  pid="$(cat "$pidf")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  cmdline="$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null || true)"
  [[ "$cmdline" == *testcluster* ]] # before exec: the forked shell, whose arguments name BIN
}

stop() { # BIN CLUSTER_DIR
  local bin="$1" dir="$2" pid i
  if running "$dir"; then
    pid="$(cat "$dir/node.pid")"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 600; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "node (pid $pid) did not stop in 60s; killing" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$dir/node.pid"
  # Whatever a killed run left behind (idempotent).
  "$bin" node cleanup --dir "$dir"
}

case "${1:-}" in
up)
  bin="$2" dir="$3" image="${4:-}" timeout="${5:-300}"
  dir="$(cd "$dir" && pwd)"
  if running "$dir" && grep -q '^ready node=' "$dir/node.log" 2>/dev/null; then
    echo "node already running (pid $(cat "$dir/node.pid"))"
    exit 0
  fi
  stop "$bin" "$dir"
  : > "$dir/node.log"
  setsid nohup "$bin" node up --dir "$dir" --image "$image" --timeout "${timeout}s" >> "$dir/node.log" 2>&1 < /dev/null &
  echo $! > "$dir/node.pid"
  start=$SECONDS
  while ! grep -q '^ready node=' "$dir/node.log"; do
    if ! running "$dir" || (( SECONDS - start >= timeout + 30 )); then
      echo "node failed to become ready after $((SECONDS - start))s; last log lines:" >&2
      tail -n 40 "$dir/node.log" >&2 || true
      stop "$bin" "$dir"
      exit 1
    fi
    sleep 0.5
  done
  echo "node ready in $((SECONDS - start))s (pid $(cat "$dir/node.pid")); logs in $dir/logs/node-*.log"
  ;;
down)
  stop "$2" "$3"
  ;;
status)
  if running "$2"; then echo "node running (pid $(cat "$2/node.pid"))"; else echo "node not running"; exit 1; fi
  ;;
*)
  sed -n '2,10p' "$0" >&2
  exit 2
  ;;
esac

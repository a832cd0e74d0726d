#!/usr/bin/env bash
# make demo: a real local cluster (kube-apiserver + etcd + KWOK), sample workloads,
# and Pilothouse with its web UI. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
KUBECONFIG_PATH=$ROOT/.cluster/kubeconfig
KUBECTL=$ROOT/.tools/bin/kubectl
DATA_DIR=$ROOT/.data/demo
PORT=${PORT:-8080}
mkdir -p "$DATA_DIR"

cleanup() {
  echo
  echo "Stopping Pilothouse and the cluster..."
  [ -n "${PILOTHOUSE_PID:-}" ] && kill "$PILOTHOUSE_PID" 2>/dev/null && wait "$PILOTHOUSE_PID" 2>/dev/null || true
  make --no-print-directory cluster-down || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

make --no-print-directory cluster
k() { "$KUBECTL" --kubeconfig "$KUBECONFIG_PATH" "$@"; }

echo "Installing Pilothouse CRDs and sample workloads..."
k apply --server-side --force-conflicts -f crds/ >/dev/null
k wait --for=condition=Established --timeout=60s crd -l app.kubernetes.io/part-of=pilothouse >/dev/null
k apply -f config/samples/demo-workloads.yaml >/dev/null
# A second revision of the storefront, so rollback and history have something to show.
# (The change cause is annotated after the image change: the annotation follows the newest revision.)
k -n shop set image deployment/storefront web=nginx:1.27 >/dev/null
k -n shop annotate deployment storefront kubernetes.io/change-cause="upgrade to nginx 1.27" --overwrite >/dev/null
k apply -f config/samples/demo-pilothouse-objects.yaml >/dev/null

PASSWORD_FILE=$DATA_DIR/admin-password
[ -s "$PASSWORD_FILE" ] || (umask 077; head -c 18 /dev/urandom | base64 | tr -d '/+=' > "$PASSWORD_FILE")
ADMIN_PASSWORD=$(cat "$PASSWORD_FILE")

# The AI pilot uses a model found on this machine, once (the config file is kept afterwards, Settings → AI writes it):
# OPENAI_API_KEY, else ANTHROPIC_API_KEY, else an Ollama at its default address with a model pulled. Without any,
# the pilot panel says in one line how to connect one.
CONFIG_FILE=$DATA_DIR/config.yaml
ollama_model() { curl -fsS --max-time 2 http://127.0.0.1:11434/api/tags 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const m=JSON.parse(s).models?.[0]?.name;if(!m)process.exit(1);console.log(m)})'; }
if [ ! -s "$CONFIG_FILE" ]; then
  if [ -n "${OPENAI_API_KEY:-}" ]; then
    # shellcheck disable=SC2016 # ${OPENAI_API_KEY} is for the config file to expand, not the shell
    printf 'llm:\n  provider: openai\n  model: %s\n  api_key: ${OPENAI_API_KEY}\n' "${OPENAI_MODEL:-gpt-4o-mini}" > "$CONFIG_FILE"
    echo "AI pilot: OpenAI (OPENAI_API_KEY)"
  elif [ -n "${ANTHROPIC_API_KEY:-}" ]; then
    # shellcheck disable=SC2016 # likewise
    printf 'llm:\n  provider: anthropic\n  model: %s\n  api_key: ${ANTHROPIC_API_KEY}\n' "${ANTHROPIC_MODEL:-claude-sonnet-4-5}" > "$CONFIG_FILE"
    echo "AI pilot: Anthropic (ANTHROPIC_API_KEY)"
  elif model=$(ollama_model); then
    printf 'llm:\n  provider: ollama\n  model: %s\n  base_url: http://127.0.0.1:11434\n  allow_private_base_url: true\n' "$model" > "$CONFIG_FILE"
    echo "AI pilot: Ollama ($model)"
  fi
fi

node bin/pilothouse -web --auth-mode local --admin-password-file "$PASSWORD_FILE" \
  --kubeconfig "$KUBECONFIG_PATH" --data-dir "$DATA_DIR" --config "$DATA_DIR/config.yaml" \
  --port "$PORT" &
PILOTHOUSE_PID=$!

for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1 && break
  sleep 0.5
done

cat <<MSG

  Pilothouse is running.
    Web UI:    http://127.0.0.1:$PORT/
    User:      admin
    Password:  $ADMIN_PASSWORD
    kubectl:   $KUBECTL --kubeconfig $KUBECONFIG_PATH get pods -A

  Press Ctrl-C to stop everything.

MSG
wait "$PILOTHOUSE_PID"

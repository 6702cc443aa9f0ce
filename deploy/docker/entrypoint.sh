#!/bin/sh
# One image runs every component; the first argument picks which. The rest are passed on,
# e.g. `keys create --org ORG --workspace WS`.
#
# A shell script rather than a Bun wrapper because of `exec`: the chosen program replaces this
# shell, so bun is PID 1, receives SIGTERM itself (graceful drain) and its exit code is the
# container's. A wrapper process would have to forward signals and would cost a second runtime.
set -eu

component="${1:-}"
[ "$#" -gt 0 ] && shift

case "$component" in
  gateway)
    # Bun's header parser limit above the gateway's own MAX_HEADER_BYTES, so oversized headers get
    # the gateway's 431 envelope (deploy/bin/services.ts says the same for local runs).
    exec bun --max-http-header-size=65536 services/gateway/src/main.ts "$@" ;;
  deployments | vaults | catalog | scheduler | runtime | sandbox-worker)
    exec bun "services/$component/src/main.ts" "$@" ;;
  migrate)
    exec bun deploy/bin/migrate.ts "$@" ;;
  keys)
    exec bun services/gateway/src/cli/keys.ts "$@" ;;
  *)
    echo "entrypoint: unknown component '$component'." >&2
    echo "usage: <gateway|deployments|vaults|catalog|scheduler|runtime|sandbox-worker|migrate|keys> [args...]" >&2
    exit 64 ;;
esac

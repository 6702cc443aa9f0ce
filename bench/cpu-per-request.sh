#!/bin/bash
# CPU per request of every process of a running stack, and database statements per request,
# under a wrk load: where one request's work goes (docs/performance.md).
#
# Usage: BASE_URL=http://127.0.0.1:8080 API_KEY=sk-... bash bench/cpu-per-request.sh create|list [seconds]
#   create: POST /v1/deployments with the side-by-side body (fixtures made through the API)
#   list:   GET /v1/deployments?limit=20
# Needs wrk, the local MariaDB as root over TCP (it reads global status counters), and the stack's
# services running from this checkout (`bun run dev`); MariaDB and NATS are counted whole, so keep
# the machine otherwise quiet.
set -eu
cd "$(dirname "$0")/.."
KIND=${1:?create or list}; D=${2:-15}
BASE_URL=${BASE_URL:-http://127.0.0.1:8080}; : "${API_KEY:?API_KEY missing}"
H=(-H "x-api-key: $API_KEY" -H 'anthropic-version: 2023-06-01' -H 'anthropic-beta: managed-agents-2026-04-01' -H 'content-type: application/json')
LUA=$(mktemp --suffix .lua)
trap 'rm -f "$LUA"' EXIT
{
  echo "wrk.headers[\"x-api-key\"] = \"$API_KEY\""
  echo 'wrk.headers["anthropic-version"] = "2023-06-01"'
  echo 'wrk.headers["anthropic-beta"] = "managed-agents-2026-04-01"'
} > "$LUA"
if [ "$KIND" = create ]; then
  id() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).id||""))'; }
  MODEL=$(curl -s "${H[@]}" "$BASE_URL/v1/models?beta=true" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.find(m=>m.list_price).id))')
  AG=$(curl -s "${H[@]}" -X POST "$BASE_URL/v1/agents?beta=true" -d "{\"name\":\"cpu\",\"model\":\"$MODEL\"}" | id)
  EN=$(curl -s "${H[@]}" -X POST "$BASE_URL/v1/environments?beta=true" -d '{"name":"cpu-env"}' | id)
  {
    echo 'wrk.method = "POST"'
    echo 'wrk.headers["content-type"] = "application/json"'
    echo "wrk.body = '{\"name\":\"sbs\",\"agent\":\"$AG\",\"environment_id\":\"$EN\",\"initial_events\":[{\"type\":\"user.message\",\"content\":[{\"type\":\"text\",\"text\":\"run the nightly report\"}]}],\"metadata\":{\"team\":\"perf\"}}'"
  } >> "$LUA"
  URL="$BASE_URL/v1/deployments?beta=true"
else
  URL="$BASE_URL/v1/deployments?beta=true&limit=20"
fi

declare -A NAMES BEFORE
root=$(pwd)
for p in $(pgrep -f 'services/[a-z]+/src/main.ts'); do
  [ "$(readlink "/proc/$p/cwd")" = "$root" ] || continue
  NAMES[$p]=$(tr '\0' ' ' < "/proc/$p/cmdline" | sed -E 's#.*services/([a-z]+)/.*#\1#')
done
for p in $(pgrep -x mariadbd) $(pgrep -x nats-server); do NAMES[$p]=$(cat "/proc/$p/comm"); done
ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
status() { mariadb -uroot -h127.0.0.1 --protocol=TCP -N -e "show global status where variable_name in ('Questions','Com_commit','Com_insert','Com_select','Com_update','Com_delete')" | awk '{printf "%s=%s ", $1, $2}'; }
for p in "${!NAMES[@]}"; do BEFORE[$p]=$(ticks "$p"); done
S0=$(status)
OUT=$(wrk -t2 -c64 -d"${D}s" --latency -s "$LUA" "$URL")
S1=$(status)
N=$(echo "$OUT" | awk '/requests in/{print $1}')
echo "$OUT" | grep -E 'Requests/sec|  50%|  99%|Non-2xx' || true
HZ=$(getconf CLK_TCK); TOTAL=0; LINES=""
for p in "${!NAMES[@]}"; do
  d=$(( $(ticks "$p") - BEFORE[$p] )); TOTAL=$((TOTAL + d))
  LINES+=$(printf '%-12s %6.3f ms CPU per request' "${NAMES[$p]}" "$(echo "$d * 1000 / $HZ / $N" | bc -l)")$'\n'
done
printf '%s' "$LINES" | sort -k2 -nr
printf '%-12s %6.3f ms CPU per request over %s requests\n' all "$(echo "$TOTAL * 1000 / $HZ / $N" | bc -l)" "$N"
node -e 'const p=s=>Object.fromEntries(s.trim().split(" ").map(x=>x.split("=")).map(([k,v])=>[k,+v]));const [a,b,n]=[p(process.argv[1]),p(process.argv[2]),+process.argv[3]];console.log("statements per request:",Object.keys(a).map(k=>`${k} ${((b[k]-a[k])/n).toFixed(2)}`).join(", "))' "$S0" "$S1" "$N"

# What the agent end-to-end scripts (claude-code-hooks.sh, codex-hooks.sh) share: the JDK and
# jars, a temporary folder cleaned up on exit, PASS/FAIL lines, free ports, waits with deadlines,
# and one tmem server on the embedded PostgreSQL with static tokens for alice and bob (writers) and
# carol (an admin of the repository: she reviews and changes its settings).
# Source it from the repository's scripts after setting work_name (the temporary folder's prefix).

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
cd "$root"
. .mvn/find-jdk.sh
java="$JAVA_HOME/bin/java"
server_jar="${TMEM_SERVER_JAR:-$root/server/target/quarkus-app/quarkus-run.jar}"
daemon_jar="${TMEM_DAEMON_JAR:-$root/client-daemon/target/tmem.jar}"
repo=acme/shop

work="$(mktemp -d "${TMPDIR:-/tmp}/${work_name:?set work_name before sourcing}.XXXXXX")"
pids=()
failures=0

say() { printf '%s\n' "$*"; }
pass() { say "PASS $*"; }
fail() { say "FAIL $*"; failures=$((failures + 1)); KEEP_LOGS=1; }

cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "${KEEP_LOGS:-0}" = 1 ]; then say "logs kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  local port
  for port in $(shuf -i 20000-45000 -n 100); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return 0; fi
  done
  return 1
}

wait_for() { # description seconds command...
  local what="$1" deadline=$((SECONDS + $2))
  shift 2
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then say "gave up waiting for $what" >&2; return 1; fi
    sleep 0.25
  done
}

# npm, node, curl and git, and the jars (built on the first run).
prerequisites() {
  local tool
  for tool in npm node curl git; do
    command -v "$tool" >/dev/null || { say "$tool is needed" >&2; exit 2; }
  done
  if [ ! -f "$server_jar" ] || [ ! -f "$daemon_jar" ]; then
    say "building the server and tmem (first run only)..."
    ./mvnw -q -pl server,client-daemon -am package -DskipTests -Dspotless.check.skip=true
  fi
}

# The tmem server, with alice and bob as writers of $repo and carol as its admin: sets server_url,
# alice_token, bob_token, carol_token.
start_server() {
  local server_port
  server_port="$(free_port)"
  server_url="http://127.0.0.1:$server_port"
  alice_token="alice-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  bob_token="bob-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  carol_token="carol-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  printf '# TOKEN USER REPOS ACCESS\n%s alice %s write\n%s bob %s write\n%s carol %s admin\n' \
    "$alice_token" "$repo" "$bob_token" "$repo" "$carol_token" "$repo" > "$work/tokens.txt"
  chmod 600 "$work/tokens.txt"
  TMEM_DATA_DIR="$work/server" QUARKUS_HTTP_PORT="$server_port" \
    TMEM_AUTH_STATIC_TOKENS_FILE="$work/tokens.txt" \
    "$java" -jar "$server_jar" > "$work/server.log" 2>&1 &
  pids+=($!)
  wait_for "the tmem server" 180 curl -fsS -o /dev/null "$server_url/q/health/ready" \
    || { tail -n 30 "$work/server.log"; exit 2; }
  say "tmem server on $server_url (embedded PostgreSQL, static tokens)"
}

# Whether MARKER reached the recorded request inside a teammate-notes fence naming AUTHOR.
check_fenced() { # description request-file marker author
  local found
  if found="$(node "$root/deploy/scripts/lib/teammate-fence.mjs" "$2" "$3" "$4")"; then
    pass "$1: $found"
  else
    fail "$1: $found"
  fi
}

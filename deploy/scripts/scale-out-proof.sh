#!/usr/bin/env bash
# Scale-out proof: two server replicas on one PostgreSQL, as processes (no container engine here).
#
#   deploy/scripts/scale-out-proof.sh          # from the repository root; takes a few minutes
#
# 1. creates a fresh database on the machine's PostgreSQL (127.0.0.1:5432, user postgres);
# 2. starts two replicas AT THE SAME MOMENT on that empty database (Flyway's advisory lock lets
#    one migrate while the other waits) and checks each migration was applied exactly once;
# 3. runs the protocol test suite against each replica;
# 4. runs concurrent writers split across both (ConcurrentWriters): no acknowledged write lost,
#    versions strictly increasing, 412s where If-Match is stale;
# 5. shows that a change made through one replica reaches a change-feed subscriber of the other
#    within seconds (ChangeFeedDelay), and a `tmem daemon` connected to the other (when the
#    daemon jar builds);
# 6. stops everything and drops the database.
# Prints PASS/FAIL lines and exits 1 if any check failed (2 if it could not run at all).
# Loopback only; every wait has a deadline.
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
cd "$root"
. .mvn/find-jdk.sh
java="$JAVA_HOME/bin/java"
server_jar="$root/server/target/quarkus-app/quarkus-run.jar"
daemon_jar="$root/client-daemon/target/tmem.jar"
pg_host=127.0.0.1
pg_port=5432
owner=proof

work="$(mktemp -d "${TMPDIR:-/tmp}/tmem-scale-out.XXXXXX")"
database="tmem_scaleout_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
pids=()
failures=0

say() { printf '%s\n' "$*"; }
pass() { say "PASS $*"; }
fail() { say "FAIL $*"; failures=$((failures + 1)); }
psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -h "$pg_host" -p "$pg_port" -U postgres -d postgres "$@"; }
psql_db() { psql -X -q -t -A -v ON_ERROR_STOP=1 -h "$pg_host" -p "$pg_port" -U postgres -d "$database" "$@"; }

cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
  done
  psql_admin -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" 2>/dev/null || true
  if [ "${KEEP_LOGS:-0}" = 1 ]; then
    say "logs kept in $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { # a loopback port nothing listens on
  local port
  for port in $(shuf -i 20000-45000 -n 100); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  return 1
}

wait_ready() { # url pid seconds
  local deadline=$((SECONDS + $3))
  while [ "$SECONDS" -lt "$deadline" ]; do
    curl -fsS -o /dev/null "$1/q/health/ready" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.5
  done
  return 1
}

now_ms() { date +%s%3N; }

# --- prerequisites ---------------------------------------------------------------------------
if ! pg_isready -q -h "$pg_host" -p "$pg_port"; then
  say "PostgreSQL is not answering on $pg_host:$pg_port; start it (pg_ctlcluster --skip-systemctl-redirect 15 main start)" >&2
  exit 2
fi
if [ ! -f "$server_jar" ]; then
  say "building the server (first run only)..."
  ./mvnw -q -pl server -am package -DskipTests -Dspotless.check.skip=true
fi
say "compiling the proof programs..."
./mvnw -q -pl deploy test-compile dependency:build-classpath -Dspotless.check.skip=true \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
classpath="$root/deploy/target/test-classes:$(cat "$root/deploy/target/test-classpath.txt")"

# --- one database, one tokens file, two replicas started together -----------------------------
# The replicas run a private copy of the packaged server, as a deployment runs an immutable
# artifact: a rebuild of server/target while they run must not change the jars under them.
cp -r "$root/server/target/quarkus-app" "$work/quarkus-app"
server_jar="$work/quarkus-app/quarkus-run.jar"
psql_admin -c "CREATE DATABASE $database"
say "database: $database on $pg_host:$pg_port (empty)"
writer_token="writer-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
reader_token="reader-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
outsider_token="outsider-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
cat > "$work/tokens.txt" <<TOKENS
# TOKEN USER REPOS ACCESS
$writer_token writer $owner/* write
$reader_token reader $owner/* read
$outsider_token outsider elsewhere/* write
TOKENS
chmod 600 "$work/tokens.txt"

port_a="$(free_port)"
port_b="$(free_port)"
while [ "$port_b" = "$port_a" ]; do port_b="$(free_port)"; done
url_a="http://127.0.0.1:$port_a"
url_b="http://127.0.0.1:$port_b"
# The replicas offer GitHub login (the suite checks auth discovery), and GitHub is out of reach
# here: a loopback stand-in refuses every token, so tokens outside the file get GitHub's 401.
github_port="$(free_port)"
"$java" "$root/deploy/scripts/GitHubThatKnowsNobody.java" "$github_port" > "$work/github.log" 2>&1 &
pids+=($!)
start_replica() { # name port
  env -u QUARKUS_DATASOURCE_JDBC_URL \
    QUARKUS_HTTP_PORT="$2" \
    QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://$pg_host:$pg_port/$database" \
    QUARKUS_DATASOURCE_USERNAME=postgres QUARKUS_DATASOURCE_PASSWORD= \
    TMEM_AUTH_STATIC_TOKENS_FILE="$work/tokens.txt" \
    TMEM_AUTH_GITHUB_CLIENT_ID=Iv1.scaleout0proof \
    TMEM_AUTH_GITHUB_API_URL="http://127.0.0.1:$github_port" \
    "$java" -Xmx512m -jar "$server_jar" > "$work/$1.log" 2>&1 &
  pids+=($!)
}
start_replica replica-a "$port_a"
pid_a=${pids[-1]}
start_replica replica-b "$port_b"
pid_b=${pids[-1]}
say "started replica A ($url_a, pid $pid_a) and replica B ($url_b, pid $pid_b) at the same moment"
if wait_ready "$url_a" "$pid_a" 180 && wait_ready "$url_b" "$pid_b" 180; then
  pass "both replicas became ready on the one database"
else
  fail "a replica did not become ready; its log:"
  tail -n 30 "$work/replica-a.log" "$work/replica-b.log"
  exit 1
fi

migrations="$(find "$root/db-migrations/src/main/resources/db/migration" -name 'V*.sql' | wc -l)"
applied="$(psql_db -c "SELECT count(*) FROM flyway_schema_history WHERE success AND version IS NOT NULL")"
duplicates="$(psql_db -c "SELECT count(*) FROM (SELECT version FROM flyway_schema_history GROUP BY version HAVING count(*) > 1) d")"
for replica in replica-a replica-b; do
  line="$(grep -E 'Successfully applied|is up to date|No migration necessary' "$work/$replica.log" | head -n 1 | sed 's/.*\] (main) //')"
  say "  $replica, Flyway: ${line:-no Flyway line}"
done
if [ "$applied" = "$migrations" ] && [ "$duplicates" = 0 ]; then
  pass "replicas started together on an empty database: each of the $migrations migrations applied exactly once (Flyway's advisory lock)"
else
  fail "flyway_schema_history holds $applied successful migrations for $migrations files, $duplicates applied twice"
fi

# --- the protocol suite against each replica --------------------------------------------------
max_entries=2000
for replica in A B; do
  url="$url_a"; [ "$replica" = B ] && url="$url_b"
  log="$work/protocol-suite-$replica.log"
  # Tokens through the environment, not the command line (docs/protocol-suite.md).
  if TMEM_PROTOCOL_URL="$url" TMEM_PROTOCOL_OWNER="$owner" TMEM_PROTOCOL_MAX_ENTRIES="$max_entries" \
      TMEM_PROTOCOL_WRITER_TOKEN="$writer_token" TMEM_PROTOCOL_READER_TOKEN="$reader_token" \
      TMEM_PROTOCOL_OUTSIDER_TOKEN="$outsider_token" \
      timeout 900 ./mvnw -B -pl shared-protocol verify -Pprotocol -Dspotless.check.skip=true \
      > "$log" 2>&1; then
    pass "protocol suite against replica $replica: $(grep -E '^\[(INFO|WARNING)\] Tests run:' "$log" | tail -n 1 | sed 's/^\[[A-Z]*\] //')"
  else
    totals="$(grep -E '^\[(ERROR|INFO|WARNING)\] Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$' "$log" | tail -n 1 | sed 's/^\[[A-Z]*\] //')"
    fail "protocol suite against replica $replica: ${totals:-did not finish within 900 s (see $log)}"
    grep -E '^\[ERROR\]   [A-Za-z]+Test\.' "$log" | sed 's/^\[ERROR\]   /       /' | cut -c1-220 || true
    KEEP_LOGS=1
  fi
done

# --- concurrent writers split across both replicas --------------------------------------------
say "concurrent writers, half through A and half through B:"
if "$java" -cp "$classpath" dev.teammemory.deploy.scaleout.ConcurrentWriters \
    "$url_a" "$url_b" "$writer_token" "$owner/scale-out-writers" 8 25 | sed 's/^/  /'; then
  pass "concurrent writers across both replicas (details above)"
else
  fail "concurrent writers across both replicas (details above)"
fi

# --- a change through one replica reaches the other's subscribers ----------------------------
say "change feed across replicas (PostgreSQL LISTEN/NOTIFY):"
if "$java" -cp "$classpath" dev.teammemory.deploy.scaleout.ChangeFeedDelay \
    "$url_a" "$url_b" "$writer_token" "$owner/scale-out-feed" 6 | sed 's/^/  /'; then
  pass "change feed fans out across replicas (details above)"
else
  fail "change feed fans out across replicas (details above)"
fi

if [ ! -f "$daemon_jar" ]; then
  ./mvnw -q -pl client-daemon -am package -DskipTests -Dspotless.check.skip=true > "$work/daemon-build.log" 2>&1 || true
fi
if [ -f "$daemon_jar" ] && "$java" -jar "$daemon_jar" daemon --help > /dev/null 2>&1; then
  team="$work/daemon/team"
  mkdir -p "$team" "$work/daemon/home"
  repo="$owner/scale-out-daemon"
  curl -fsS -o /dev/null -X PUT -H "Authorization: Bearer $writer_token" -H 'Content-Type: application/json' \
    -d '{"entries":{"first.md":"written through replica A before the daemon started\n"}}' \
    "$url_a/api/claude_code/team_memory?repo=${repo/\//%2F}"
  HOME="$work/daemon/home" XDG_STATE_HOME="$work/daemon/state" XDG_CONFIG_HOME="$work/daemon/config" \
    TMEM_SERVER_URL="$url_b" TMEM_TOKEN="$writer_token" \
    "$java" -jar "$daemon_jar" daemon --team-dir "$team" --repo "$repo" > "$work/daemon.log" 2>&1 &
  pids+=($!)
  daemon_pid=${pids[-1]}
  deadline=$((SECONDS + 60))
  while [ ! -f "$team/first.md" ] && [ "$SECONDS" -lt "$deadline" ] && kill -0 "$daemon_pid" 2>/dev/null; do sleep 0.2; done
  if [ -f "$team/first.md" ]; then
    sleep 3 # let the daemon park its change-feed poll on replica B
    sent="$(now_ms)"
    curl -fsS -o /dev/null -X PUT -H "Authorization: Bearer $writer_token" -H 'Content-Type: application/json' \
      -d '{"entries":{"second.md":"written through replica A while the daemon follows replica B\n"}}' \
      "$url_a/api/claude_code/team_memory?repo=${repo/\//%2F}"
    deadline=$((SECONDS + 30))
    while [ ! -f "$team/second.md" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.05; done
    if [ -f "$team/second.md" ]; then
      delay=$(( $(now_ms) - sent ))
      if [ "$delay" -lt 5000 ]; then
        pass "a tmem daemon following replica B wrote second.md to its team folder $delay ms after the PUT through replica A"
      else
        fail "the daemon following replica B took $delay ms to receive a change made through replica A"
      fi
    else
      fail "the daemon following replica B never received second.md written through replica A (log: $work/daemon.log)"
      KEEP_LOGS=1
    fi
  else
    fail "the daemon following replica B did not pull first.md within 60 s (log: $work/daemon.log)"
    KEEP_LOGS=1
  fi
  kill "$daemon_pid" 2>/dev/null || true
else
  say "SKIP the daemon check: client-daemon/target/tmem.jar is missing or has no 'daemon' command (the change-feed check above stands)"
fi

# --- summary -----------------------------------------------------------------------------------
if [ "$failures" -eq 0 ]; then
  say "PASS scale-out proof: two replicas on one PostgreSQL"
  exit 0
fi
say "FAIL scale-out proof: $failures check(s) failed"
KEEP_LOGS=1
exit 1

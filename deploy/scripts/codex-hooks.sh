#!/usr/bin/env bash
# OpenAI's Codex CLI with tmem's hooks and MCP server, end to end and offline (docs/agents.md).
# Not part of ./mvnw verify (it downloads the agent from npm); .ci/run runs it after verify.
#
#   deploy/scripts/codex-hooks.sh      # from the repository root; a few minutes
#
# 1. installs @openai/codex at the version deploy/scripts/codex-harness/package-lock.json pins
#    (npm ci into a temporary folder);
# 2. starts a fake Responses API (deploy/scripts/FakeResponsesApi.java) that records every request
#    and answers with scripted tool calls (the script.jsonl this script writes);
# 3. starts one tmem server on the embedded PostgreSQL with static tokens, and two daemons on it:
#    alice (a Claude Code user) and bob (Codex only: no ~/.claude, so his team folder is recorded
#    under tmem's own state home), each with a git checkout of acme/shop;
# 4. alice's team memory syncs to bob; bob runs `tmem hook install --agent codex`;
# 5. runs `codex exec` in bob's checkout against the fake API, and checks: the teammate's memory
#    reaches the model's request through the hooks; the scripted memory_search returns it; the
#    scripted memory_save of a team memory lands on the server and on alice's disk; the scripted
#    save holding a token is refused.
# Prints PASS/FAIL lines and exits 1 if a check failed (2 if it could not run). KEEP_LOGS=1 keeps
# the temporary folder. Loopback only, apart from npm; every wait has a deadline.
set -euo pipefail

work_name=tmem-codex
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/two-daemons.sh"
prerequisites

# --- 1. the agent, pinned --------------------------------------------------------------------------
mkdir -p "$work/agent"
cp deploy/scripts/codex-harness/package.json deploy/scripts/codex-harness/package-lock.json "$work/agent/"
say "installing @openai/codex from npm (npm ci, the pinned version)..."
(cd "$work/agent" && npm ci --no-audit --no-fund --loglevel=error) > "$work/npm.log" 2>&1 \
  || { cat "$work/npm.log" >&2; exit 2; }
codex="$work/agent/node_modules/.bin/codex"
say "codex --version: $("$codex" --version 2>&1 | tail -n 1)"

# --- 2. the fake Responses API ---------------------------------------------------------------------
api_port="$(free_port)"
requests="$work/requests"
"$java" "$root/deploy/scripts/FakeResponsesApi.java" "$api_port" "$requests" > "$work/fake-api.log" 2>&1 &
pids+=($!)
wait_for "the fake Responses API" 60 curl -s -o /dev/null "http://127.0.0.1:$api_port/"

# --- 3. one server, two daemons --------------------------------------------------------------------
start_server

person() { # person -> the variables of their processes, in person_env
  local token="$alice_token"
  [ "$1" = bob ] && token="$bob_token"
  person_env=(PATH="$PATH" HOME="$work/$1" LANG=C.UTF-8 TMPDIR="$work/$1/tmp"
    JAVA_HOME="$JAVA_HOME" CODEX_HOME="$work/$1/.codex"
    TMEM_SERVER_URL="$server_url" TMEM_TOKEN="$token" FAKE_OPENAI_KEY=dummy)
}
as() { # person command...
  person "$1"
  shift
  env -i "${person_env[@]}" "$@"
}
tmem() { local who="$1"; shift; (cd "$work/$who/shop" && as "$who" "$java" -jar "$daemon_jar" "$@"); }

for who in alice bob; do
  mkdir -p "$work/$who/shop" "$work/$who/tmp"
  git -C "$work/$who/shop" init -q
  git -C "$work/$who/shop" remote add origin "https://github.com/$repo.git"
  if [ "$who" = alice ]; then
    # alice uses Claude Code: its memory folder for the checkout exists.
    mkdir -p "$(tmem alice memory path 2>/dev/null | tail -n 1)"
  fi
  tmem "$who" add > "$work/$who-add.log" 2>&1 || { cat "$work/$who-add.log"; exit 2; }
  team="$(sed -n 's/.*"teamDir" *: *"\([^"]*\)".*/\1/p' "$work/$who/.local/state/tmem/projects.json" | head -n 1)"
  mkdir -p "$team"
  printf '%s\n' "$team" > "$work/$who.team"
  person "$who"
  (cd "$work/$who/shop" && exec env -i "${person_env[@]}" "$java" -jar "$daemon_jar" daemon \
    > "$work/$who-daemon.log" 2>&1) &
  pids+=($!)
done
alice_team="$(cat "$work/alice.team")"
bob_team="$(cat "$work/bob.team")"
case "$bob_team" in
  "$work/bob/.local/state/tmem/memory/"*) pass "bob (Codex only) has his team folder under tmem's state home: $bob_team" ;;
  *) fail "bob's team folder is not under tmem's state home: $bob_team" ;;
esac
wait_for "bob's daemon to serve hooks" 60 test -f "$work/bob/.local/state/tmem/api.json" \
  || { tail -n 20 "$work/bob-daemon.log"; exit 2; }

# --- 4. alice's team memory reaches bob; bob installs the Codex integration -----------------------
teammate_marker="TEAMMATE-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')"
cat > "$alice_team/integration-tests-real-postgres.md" <<MEMORY
---
name: integration-tests-real-postgres
description: checkout integration tests run against a real PostgreSQL database, never an in-memory one
type: feedback
---

Checkout integration tests run against a real PostgreSQL database ($teammate_marker).
MEMORY
printf -- '- [Real PostgreSQL in tests](integration-tests-real-postgres.md) — checkout integration tests use real PostgreSQL (%s)\n' \
  "$teammate_marker" > "$alice_team/MEMORY.md"
wait_for "alice's team memory to reach bob" 90 \
  grep -q "$teammate_marker" "$bob_team/integration-tests-real-postgres.md" \
  || { tail -n 20 "$work/alice-daemon.log" "$work/bob-daemon.log"; exit 1; }
pass "alice's team memory synced to bob through the server"

mkdir -p "$work/bob/.codex"
cat > "$work/bob/.codex/config.toml" <<CONFIG
# bob's own settings: the offline model provider (these lines must come out of the uninstall as they are)
model_provider = "fake"
model = "gpt-5"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake Responses API"
base_url = "http://127.0.0.1:$api_port/v1"
env_key = "FAKE_OPENAI_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"

[features]
plugins = false
apps = false
memories = false
enable_request_compression = false
tool_suggest = false
CONFIG
cp "$work/bob/.codex/config.toml" "$work/config.before"
tmem bob hook install --agent codex | sed 's/^/  /'

# --- 5. codex exec, offline, in bob's checkout -------------------------------------------------------
token_like="ghp_$(od -An -N27 -tx1 /dev/urandom | tr -d ' \n' | head -c 36)"
cat > "$requests/script.jsonl" <<SCRIPTED
{"type":"function_call","namespace":"mcp__tmem","name":"memory_search","arguments":"{\"query\":\"do checkout integration tests use a real PostgreSQL database\"}"}
{"type":"function_call","namespace":"mcp__tmem","name":"memory_save","arguments":"{\"scope\":\"team\",\"name\":\"release-train\",\"type\":\"project\",\"description\":\"releases leave on Tuesdays\",\"body\":\"Releases leave on Tuesdays (CODEX-SAVED).\"}"}
{"type":"function_call","namespace":"mcp__tmem","name":"memory_save","arguments":"{\"scope\":\"team\",\"name\":\"deploy-token\",\"type\":\"reference\",\"description\":\"how to deploy\",\"body\":\"Deploy with $token_like\"}"}
SCRIPTED
prompt="Should the checkout integration tests use an in-memory database or a real PostgreSQL database?"
started=$(date +%s%3N)
(cd "$work/bob/shop" && as bob timeout 300 "$codex" exec --strict-config --skip-git-repo-check "$prompt" </dev/null) \
  > "$work/codex.out" 2> "$work/codex.err" \
  && pass "codex exec answered in $(( $(date +%s%3N) - started )) ms" \
  || fail "codex exec failed: $(tail -n 5 "$work/codex.err")"
grep '^hook: ' "$work/codex.err" | sed 's/^/  /' || true

say "recorded requests: $(ls "$requests" | grep -c '\.txt$')"
first="$(grep -l -F "$prompt" "$requests"/*.txt 2>/dev/null | head -n 1 || true)"
if [ -n "$first" ] && grep -q "$teammate_marker" "$first"; then
  pass "a teammate's memory (synced from alice) reached the model's request through the hooks ($(basename "$first"))"
else
  fail "the teammate's memory is not in the model's first request"
fi
[ -n "$first" ] && check_fenced "in Codex's request the teammate's memory is inside a fence naming its author" \
  "$first" "$teammate_marker" alice
# A tool's result as the next request carries it (Codex sends it as a list of input_text parts).
outputs() { # call number -> the text of that call's function_call_output, from the last request
  local last
  last="$(grep -l -F '"call_id":"call_'"$1"'","output"' "$requests"/*.txt 2>/dev/null | tail -n 1 || true)"
  [ -n "$last" ] || return 0
  tail -n +2 "$last" | node -e '
    let body = ""; process.stdin.on("data", (d) => (body += d)).on("end", () => {
      const item = JSON.parse(body).input.find((i) => i.type === "function_call_output" && i.call_id === process.argv[1]);
      const output = item?.output ?? "";
      process.stdout.write(typeof output === "string" ? output : output.map((p) => p.text ?? "").join(""));
    });' "call_$1"
}
search="$(outputs 1)"
if printf '%s' "$search" | grep -q "$teammate_marker"; then
  pass "the scripted memory_search returned the teammate's memory"
  if printf '%s' "$search" | grep -q '"author":"alice"'; then
    pass "memory_search names the teammate's memory's author: alice"
  else
    fail "memory_search does not name alice as the author: $(printf '%s' "$search" | head -c 300)"
  fi
else
  fail "memory_search did not return the teammate's memory: $(printf '%s' "$search" | head -c 300)"
fi
if wait_for "the saved team memory on bob's disk" 30 grep -q CODEX-SAVED "$bob_team/release-train.md"; then
  pass "the scripted memory_save wrote team/release-train.md in bob's team folder"
else
  fail "memory_save wrote nothing: $(outputs 2 | head -c 300)"
fi
if wait_for "the saved memory on the server" 60 sh -c "curl -fsS -H 'Authorization: Bearer $alice_token' '$server_url/api/claude_code/team_memory?repo=$repo' | grep -q CODEX-SAVED"; then
  pass "the saved team memory is on the server"
else
  fail "the saved team memory did not reach the server"
fi
if wait_for "the saved memory on alice's disk" 90 grep -q CODEX-SAVED "$alice_team/release-train.md"; then
  pass "the saved team memory reached alice's disk"
else
  fail "the saved team memory did not reach alice"
fi
refused="$(outputs 3)"
if printf '%s' "$refused" | grep -q 'not saved: it holds what looks like a secret' && [ ! -e "$bob_team/deploy-token.md" ]; then
  pass "the save holding a token was refused: $(printf '%s' "$refused" | grep -o 'not saved[^(]*([a-z-]*' | head -n 1)"
else
  fail "the save holding a token was not refused: $(printf '%s' "$refused" | head -c 300)"
fi

tmem bob hook uninstall --agent codex | sed 's/^/  /'
if cmp -s "$work/config.before" "$work/bob/.codex/config.toml"; then
  pass "tmem hook uninstall --agent codex gave back bob's config.toml byte for byte"
else
  fail "config.toml differs after the uninstall: $(diff "$work/config.before" "$work/bob/.codex/config.toml" | head -n 5)"
fi
if [ -s "$work/bob/.local/state/tmem/hooks.log" ]; then
  say "bob's hooks.log:"; sed 's/^/  /' "$work/bob/.local/state/tmem/hooks.log"
fi

if [ "$failures" -eq 0 ]; then
  say "PASS Codex ($("$codex" --version 2>&1 | tail -n 1)) with tmem's hooks and MCP server"
  exit 0
fi
say "FAIL Codex with tmem's hooks and MCP server: $failures check(s) failed"
exit 1

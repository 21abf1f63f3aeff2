#!/usr/bin/env bash
# Runs one of the benchmark programs of docs/benchmarks.md on a fresh clone: builds its module and
# the modules it needs in one reactor (nothing is installed into ~/.m2), then starts the program
# from the repository root with the module's test class path.
#
#   deploy/scripts/benchmark.sh scanner        [CORPUS_FOLDER]
#   deploy/scripts/benchmark.sh memory-engine  [RECALL_RUNS=200] [NOTES_RUNS=20]
#   deploy/scripts/benchmark.sh sync           [EDITS=100] [IDLE_SECONDS=60]
#   deploy/scripts/benchmark.sh per-file-sync  [EDITS=10] [FOLLOWERS=100]
#   deploy/scripts/benchmark.sh faults
#   deploy/scripts/benchmark.sh server         [-Dbench.seconds=… -Dbench.operations=hashes,get,put,auth …]
#   deploy/scripts/benchmark.sh listing        [-Dbench.requests=300 -Dbench.foreign=2000]
#   deploy/scripts/benchmark.sh console        [-Dbench.memories=10000 -Dbench.requests=50]
#   deploy/scripts/benchmark.sh full-read      [-Dbench.heap=256m -Dbench.megabytes=48 -Dbench.concurrent=4]
#   deploy/scripts/benchmark.sh load           [SECONDS=150] [REPOSITORIES=300] [WORKERS=16]
#   deploy/scripts/benchmark.sh server-start   [-Dbench.rounds=5]
#
# Arguments that start with -D are JVM system properties; the others go to the program.
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
. "$root/.mvn/find-jdk.sh"

usage() {
  sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

[ $# -ge 1 ] || usage
name="$1"
shift
case "$name" in
  scanner) modules=secret-rules; module=secret-rules; main=dev.teammemory.secrets.bench.ScannerBenchmark ;;
  memory-engine) modules=client-daemon; module=client-daemon; main=dev.teammemory.daemon.bench.MemoryEngineBench ;;
  sync) modules=server,client-daemon; module=client-daemon; main=dev.teammemory.daemon.bench.SyncBenchmark ;;
  per-file-sync) modules=server,client-daemon; module=client-daemon; main=dev.teammemory.daemon.bench.PerFileSyncBenchmark ;;
  faults) modules=server,client-daemon; module=client-daemon; main=dev.teammemory.daemon.bench.FaultProgram ;;
  server) modules=server; module=server; main=dev.teammemory.server.bench.ServerBenchmark ;;
  listing) modules=server; module=server; main=dev.teammemory.server.bench.ListingBenchmark ;;
  console) modules=server; module=server; main=dev.teammemory.server.bench.ConsoleBenchmark ;;
  full-read) modules=server; module=server; main=dev.teammemory.server.bench.FullReadBenchmark ;;
  server-start) modules=server; module=server; main=dev.teammemory.server.bench.ServerStartBenchmark ;;
  load) modules=server,deploy; module=deploy; main=dev.teammemory.deploy.load.LoadAndFaults ;;
  *) echo "benchmark.sh: no benchmark named '$name'" >&2; usage ;;
esac

properties=()
arguments=()
for argument in "$@"; do
  case "$argument" in
    -D*) properties+=("$argument") ;;
    *) arguments+=("$argument") ;;
  esac
done

cd "$root"
echo "benchmark.sh: building $modules (and what they need)..." >&2
# package compiles the test classes too (-DskipTests only skips running them); the class path of
# every module of the reactor is written to its target/benchmark-classpath.txt.
./mvnw -q -B -ntp -pl "$modules" -am package dependency:build-classpath \
  -DskipTests -Dspotless.check.skip=true \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/benchmark-classpath.txt >&2

classpath="$module/target/test-classes:$module/target/classes:$(cat "$module/target/benchmark-classpath.txt")"
exec "$JAVA_HOME/bin/java" \
  -Dtmem.server.jar="$root/server/target/quarkus-app/quarkus-run.jar" \
  ${properties[@]+"${properties[@]}"} -cp "$classpath" "$main" ${arguments[@]+"${arguments[@]}"}

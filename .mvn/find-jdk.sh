# Sourced by ./mvnw, ./tmem and .ci/run: makes JAVA_HOME point at a JDK >= 21.
# Keeps a JAVA_HOME (or the java on PATH) that is new enough; otherwise looks in the usual
# install folders; otherwise stops with a message that says what to install.

tmem_java_major() { # prints the feature version of the java binary $1, or nothing
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

tmem_find_jdk() {
  required=21
  set +f # ./mvnw runs with globbing off; the folder patterns below need it
  candidates=""
  [ -n "${JAVA_HOME-}" ] && candidates="$JAVA_HOME"
  if command -v javac >/dev/null 2>&1; then
    candidates="$candidates $(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
  fi
  for dir in /usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home "$HOME"/.sdkman/candidates/java/*; do
    [ -d "$dir" ] && candidates="$candidates $dir"
  done
  for home in $candidates; do
    if [ -x "$home/bin/javac" ]; then
      major=$(tmem_java_major "$home/bin/java")
      if [ -n "$major" ] && [ "$major" -ge "$required" ]; then
        export JAVA_HOME="$home"
        return 0
      fi
    fi
  done
  echo "Team Memory needs a JDK $required or newer and found none (checked JAVA_HOME, the javac on PATH and /usr/lib/jvm)." >&2
  echo "Install one (for example: apt-get install openjdk-21-jdk-headless) or set JAVA_HOME to it." >&2
  return 1
}

tmem_find_jdk || exit 2

#!/usr/bin/env bash
# Runs memory-stores-sdk-example.mjs (the official TypeScript SDK against a Team Memory server) in
# a scratch folder, with @anthropic-ai/sdk from npm. Needs Node.js 20+ and npm.
#
#   TMEM_URL=http://127.0.0.1:8080 TMEM_TOKEN=… TMEM_REPO=acme/widgets \
#     deploy/scripts/memory-stores-sdk-example.sh [SDK_VERSION=1.13.0]
set -euo pipefail

: "${TMEM_URL:?the base URL of the server}" "${TMEM_TOKEN:?a token with write access}" "${TMEM_REPO:?owner/name}"
version="${1:-1.13.0}"
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp "$here/memory-stores-sdk-example.mjs" "$scratch/"
(cd "$scratch" && npm init -y >/dev/null && npm install --silent "@anthropic-ai/sdk@$version" >&2)
node "$scratch/memory-stores-sdk-example.mjs"

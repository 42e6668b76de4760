#!/usr/bin/env bash
# Builds the web view (web/) into internal/web/dist, which the terrane
# binary embeds. The built files are committed so that `go build` needs no
# Node.js; CI runs this script and fails when they differ from the commit.
set -euo pipefail
cd "$(dirname "$0")/../web"
npm ci --no-audit --no-fund >/dev/null
npx tsc --noEmit
npx vite build --logLevel warn

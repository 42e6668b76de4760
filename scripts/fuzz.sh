#!/usr/bin/env bash
# Runs each of Terrane's fuzz targets for a short while, starting from its
# committed seed corpus (the f.Add seeds and testdata/fuzz). CI runs it with
# the default; give a longer FUZZTIME (a Go duration, or Nx for N inputs)
# to search harder, e.g. FUZZTIME=10m ./scripts/fuzz.sh. A failing input is
# written to the package's testdata/fuzz directory and the script stops.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-5s}

targets=(
  "FuzzLoadConfig ./internal/config"
  "FuzzReadPlanFile ./internal/plans/planfile"
  "FuzzReadStateFile ./internal/states/statefile"
  "FuzzParseLockFile ./internal/depsfile"
  "FuzzDecodeMsgpack ./internal/value"
  "FuzzDecodeJSON ./internal/value"
  "FuzzResourceServiceRequest ./internal/resourceservice"
)
for target in "${targets[@]}"; do
  read -r name pkg <<<"$target"
  echo "== $name ($pkg, $fuzztime)"
  # Minimizing each new input for the default 60 s would use the whole
  # short run; CI wants breadth, so a new input gets 200 tries at most.
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime 200x "$pkg"
done

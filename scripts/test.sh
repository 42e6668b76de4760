#!/usr/bin/env bash
# Runs every test of Terrane: static checks, the main module's tests (with
# the race detector, but for the corpus and the end-to-end tests; they build
# and launch the test providers), and the test providers' own tests. Needs
# Go; etcd-based tests need /usr/bin/etcd (Debian's etcd-server) and fail
# without it when CI is set.
set -euo pipefail
cd "$(dirname "$0")/.."

# The test providers' module and the modules nested in it (providers whose
# SDKs pin their own dependency releases, such as Pulumi's Terraform bridge).
testprovider_modules=(internal/testproviders)
for module in internal/testproviders/*/; do
  if [ -f "$module/go.mod" ]; then testprovider_modules+=("${module%/}"); fi
done

echo "== gofmt"
unformatted=$(git ls-files '*.go' | grep -v '\.pb\.go$' | xargs gofmt -l)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

echo "== go build"
go build ./...
# CGO_ENABLED=0 as providertest builds them, so the builds share the cache.
for module in "${testprovider_modules[@]}"; do (cd "$module" && CGO_ENABLED=0 go build ./...); done

echo "== go vet"
go vet ./...
for module in "${testprovider_modules[@]}"; do (cd "$module" && CGO_ENABLED=0 go vet ./...); done

echo "== go test"
# Every package's tests run with the race detector except two that run
# programs rather than code: the differential corpus (Terrane beside
# OpenTofu's recordings, see corpus/README.md) and the end-to-end tests
# (the terrane binary as a user runs it). Run without -race, they build
# the terrane binary without the detector too; with it, every command
# they run would cost several times as much, and the code they drive is
# raced by its own packages' tests. `go test -race ./internal/command/e2etest/`
# races the binary too.
programs=(github.com/terrane/terrane/corpus github.com/terrane/terrane/internal/command/e2etest)
packages=$(go list ./... | grep -vxF "$(printf '%s\n' "${programs[@]}")")
pids=()
go test -race -count=1 -timeout 60m $packages & pids+=($!)
go test -count=1 -timeout 60m "${programs[@]}" & pids+=($!)
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || { echo "go test failed" >&2; exit 1; }

echo "== fuzz targets, briefly, from their seed corpora"
./scripts/fuzz.sh

echo "== test providers"
# Only the test providers' own module has tests; go test would build the
# nested modules' large dependency graphs again with -race for nothing.
(cd internal/testproviders && go test -race -count=1 ./...)

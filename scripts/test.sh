#!/usr/bin/env bash
# Runs every test of Terrane: static checks, the main module's tests with the
# race detector (they build and launch the test providers), and the test
# providers' own tests. Needs Go; etcd-based tests need /usr/bin/etcd
# (Debian's etcd-server) and fail without it when CI is set.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== gofmt"
unformatted=$(git ls-files '*.go' | grep -v '\.pb\.go$' | xargs gofmt -l)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

echo "== go build"
go build ./...
(cd internal/testproviders && go build ./...)

echo "== go vet"
go vet ./...
(cd internal/testproviders && go vet ./...)

echo "== go test (race)"
go test -race -count=1 -timeout 30m ./...

echo "== fuzz targets, briefly, from their seed corpora"
./scripts/fuzz.sh

echo "== test providers"
(cd internal/testproviders && go test -race -count=1 ./...)

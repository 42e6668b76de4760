#!/usr/bin/env bash
# Runs every test of Terrane: static checks, the main module's tests with the
# race detector (they build and launch the test providers), and the test
# providers' own tests. Needs Go; etcd-based tests need /usr/bin/etcd
# (Debian's etcd-server) and fail without it when CI is set.
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

echo "== go test (race)"
go test -race -count=1 -timeout 60m ./...

echo "== test providers"
# Only the test providers' own module has tests; go test would build the
# nested modules' large dependency graphs again with -race for nothing.
(cd internal/testproviders && go test -race -count=1 ./...)

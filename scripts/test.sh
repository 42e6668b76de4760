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
# internal/command's end-to-end tests run one after another (they change
# the process's directory and environment), so the package would take as
# long as all the others together: its tests are shared out between two
# processes, which run beside the other packages.
command_pkg=github.com/terrane/terrane/internal/command
command_tests=$(go test -race -list '.*' "$command_pkg" | grep -E '^(Test|Fuzz|Example)')
[ -n "$command_tests" ] || { echo "no tests listed in $command_pkg" >&2; exit 1; }
shard() { awk -v n="$1" 'NR % 2 == n' <<<"$command_tests" | paste -sd'|' -; }
pids=()
go test -race -count=1 -timeout 60m $(go list ./... | grep -vx "$command_pkg") & pids+=($!)
for n in 0 1; do
  go test -race -count=1 -timeout 60m -run "^($(shard "$n"))\$" "$command_pkg" & pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || { echo "go test failed" >&2; exit 1; }

echo "== fuzz targets, briefly, from their seed corpora"
./scripts/fuzz.sh

echo "== test providers"
# Only the test providers' own module has tests; go test would build the
# nested modules' large dependency graphs again with -race for nothing.
(cd internal/testproviders && go test -race -count=1 ./...)

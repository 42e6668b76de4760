#!/usr/bin/env bash
# Terrane's main job, end to end, on a fresh machine with Go: builds the CLI
# and the test provider into a filesystem mirror in a temporary directory,
# points a CLI configuration at that mirror, and runs the example
# configuration in examples/demo.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

platform="$(go env GOOS)_$(go env GOARCH)"
mirror="$work/mirror"
pkgdir="$mirror/registry.terraform.io/terrane/tpf/0.1.0/$platform"

echo "== building terrane and the test provider"
go build -o "$work/bin/terrane" ./cmd/terrane
(cd internal/testproviders && go build -o "$pkgdir/terraform-provider-tpf_v0.1.0" ./cmd/terraform-provider-tpf)

cat > "$work/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path = "$mirror"
  }
}
RC
export TERRANE_CLI_CONFIG_FILE="$work/terraformrc"
export TERRANE_SCHEMA_CACHE_DIR="$work/schemas"
cp -r "$repo/examples/demo" "$work/project"
terrane="$work/bin/terrane"

echo "== terrane version"
"$terrane" version

echo "== terrane providers schema -json"
"$terrane" -chdir="$work/project" providers schema -json

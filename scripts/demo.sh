#!/usr/bin/env bash
# Terrane's main job, end to end, on a fresh machine with Go: builds the CLI
# and the test provider into a filesystem mirror in a temporary directory,
# points a CLI configuration at that mirror, and takes the example
# configuration in examples/demo through init, plan, apply, show, a plan that
# finds nothing to change, and destroy, with state in the embedded store
# (.terrane/state.db).
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
"$terrane" -chdir="$work/project" providers schema -json > "$work/schema.json"
echo "$(wc -c < "$work/schema.json") bytes of provider schema JSON"

cloud="$work/cloud"
mkdir -p "$cloud"
export TF_VAR_cloud_dir="$cloud"
export NO_COLOR=1
run() {
  echo
  echo "== terrane $*"
  "$terrane" -chdir="$work/project" "$@"
}
objects() {
  echo
  echo "== objects in the provider's cloud: $(find "$cloud" -name '*.json' | wc -l)"
}

run init
run plan -out=demo.tfplan
run apply demo.tfplan
objects
run show
run output
# A second plan reads every record back from the store and refreshes each
# object through the provider: nothing has changed, so nothing is proposed.
run plan -detailed-exitcode
run destroy -auto-approve
objects

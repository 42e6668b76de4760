#!/usr/bin/env bash
# Regenerates every Go stub under proto/ from the .proto files beside them.
# Needs protoc (Debian: protobuf-compiler); protoc-gen-go and protoc-gen-go-grpc
# come from the versions pinned as tools in go.mod.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go
go build -o "$bin/protoc-gen-go-grpc" google.golang.org/grpc/cmd/protoc-gen-go-grpc
module=$(go list -m)
find proto -name '*.proto' -print0 | sort -z | while IFS= read -r -d '' file; do
  protoc -I proto \
    --plugin=protoc-gen-go="$bin/protoc-gen-go" \
    --plugin=protoc-gen-go-grpc="$bin/protoc-gen-go-grpc" \
    --go_out=. --go_opt=module="$module" \
    --go-grpc_out=. --go-grpc_opt=module="$module" \
    "$file"
done

// Package proto holds the protocol definitions Terrane speaks and their
// generated Go stubs, one sub-package per .proto file:
//
//   - tfplugin5, tfplugin6: the Terraform provider plugin protocol, newest minors;
//   - pbresource: Consul's ResourceService (package hashicorp.consul.resource);
//   - tfplan: the plan file's protobuf (package tfplan), with priorv1 for the
//     prior records a plan was made against;
//   - terrane/recordsv1, terrane/storev1: Terrane's record types and the
//     batch extension service served beside ResourceService.
//
// Regenerate every stub with scripts/genproto.sh (needs protoc from Debian's
// protobuf-compiler; the Go plugins are pinned as tools in go.mod). Never edit
// generated files by hand.
package proto

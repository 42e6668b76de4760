// Package tpf is a terraform-plugin-framework provider backed by the file
// cloud of package cloud. The same code is served on protocol 6 (type name
// "tpf") and protocol 5 (type name "tpf5"); features protocol 5 cannot carry,
// nested attributes, exist only on the protocol 6 variant. The resources,
// attributes and failure switches are documented in the module's README.md.
package tpf

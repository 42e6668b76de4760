// Package native is a Pulumi provider written with pulumi-go-provider's
// infer package, the way native providers such as pulumi-command are: Go
// types describe the inputs and outputs, and infer derives the package
// schema, Check, Diff and the wire encoding from them.
//
// Package tpnative. Objects are stored in the test cloud (package cloud)
// under ROOT/tpnative_record/<id>.json and ROOT/tpnative_stamp/<id>.json,
// holding the object's state with Pulumi property names. ROOT is the
// provider's rootDir, else TESTCLOUD_DIR.
package native

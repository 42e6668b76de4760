// Package tpsdk is a terraform-plugin-sdk/v2 provider (protocol 5, legacy
// type system) backed by the file cloud of package cloud: resource and data
// source tpsdk_widget. Its attributes are documented in the module's
// README.md.
package tpsdk

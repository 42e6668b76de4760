// Package cloud is the pretend cloud behind Terrane's test providers: a
// directory of JSON files that the providers create, read, update and delete
// as if they were remote objects.
//
// # Layout
//
// Every object lives in its own file:
//
//	ROOT/<kind>/<id>.json
//
// where ROOT is the directory chosen by the test (the provider attribute
// root_dir, falling back to the environment variable TESTCLOUD_DIR), <kind>
// is the resource type name that owns the object (for example tpf_thing or
// tpsdk_widget) and <id> is the object's identifier. The file holds one JSON
// object whose keys are the resource's attribute names, encoded the way
// Terraform encodes state attributes in JSON.
//
// Writes are atomic: a file is written under a temporary name in the same
// directory and renamed into place, so a reader never sees half an object.
// Tests simulate drift by editing or deleting these files between runs; a
// missing file reads as "the object is gone".
package cloud

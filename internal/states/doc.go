// Package states is the state model the engine plans and applies over: the
// resource instances of a workspace, grouped by module instance and
// resource, each with its current and deposed objects and any open intent,
// plus the root module's outputs. Objects stay in their encoded form
// (ResourceInstanceObjectSrc) until the engine has the provider schema that
// decodes them; SyncState makes the model safe for a concurrent walk.
//
// Subpackage statefile reads and writes Terraform's state v4 JSON;
// subpackage recordstore maps the model to workspace records.
package states

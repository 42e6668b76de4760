// Package remotestate is the terraform_remote_state data source: it reads
// the root module outputs of another Terrane workspace (backend "terrane")
// or of a Terraform or OpenTofu state v4 file (backend "local") and returns
// them as one object. Provider wraps it as a providers.Interface; the
// built-in terraform provider can instead call DataSource directly.
package remotestate

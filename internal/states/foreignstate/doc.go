// Package foreignstate finds the state Terraform or OpenTofu keep for a
// configuration — a terraform.tfstate beside it, the files a backend
// "local" block names (its path and workspace_dir), or the document an
// backend "http" block's address serves — so that init can offer to take
// it into Terrane's store, and later commands can refuse to plan new
// objects over state Terrane has not taken in.
package foreignstate

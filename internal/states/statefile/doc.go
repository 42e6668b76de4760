// Package statefile reads and writes Terraform's state file format version
// 4 (terraform.tfstate), the format Terraform 0.12 and later and OpenTofu
// use, so that state moves in from and out to those tools unchanged.
// Earlier format versions are rejected with advice to upgrade them first.
package statefile

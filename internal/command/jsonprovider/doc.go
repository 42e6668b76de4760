// Package jsonprovider renders provider schemas in the JSON representation
// of `terraform providers schema -json` (format version 1.0), using the Go
// types of github.com/hashicorp/terraform-json so the shape is Terraform's.
package jsonprovider

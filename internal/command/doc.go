// Package command implements Terrane's command-line interface: one file per
// command, each parsing its Terraform-compatible flags (package arguments),
// running, and handing what it has to show to its view (package views).
package command

// Package command implements Terrane's command-line interface: one file per
// command, each parsing its Terraform-compatible flags, calling into the
// engine, and rendering results and diagnostics through package ui.
package command

// Package cliconfig reads the user's CLI configuration file — the
// .terraformrc format shared with Terraform and OpenTofu, in native or JSON
// syntax — into typed settings: how providers are installed (development
// overrides, filesystem and network mirrors, direct), the plugin cache
// directory and registry credentials. It decides which file applies from
// the environment and reports every problem as a diagnostic naming the file
// and line.
package cliconfig

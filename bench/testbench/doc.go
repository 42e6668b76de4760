// Package testbench measures `terrane test` on a module with 20 run blocks
// beside `terraform test` on the same files: wall time, CPU time, and the
// peak resident memory of the test command itself, of its largest provider
// process and of the whole process tree at once.
//
//	go test -run '^$' -bench . -benchtime 1x -timeout 30m ./bench/testbench
//
// The module uses the framework test provider (built from
// internal/testproviders into a filesystem mirror both tools install from)
// and terraform_data. The suite is what module authors write: an apply,
// plans of other variable values asserting on planned values, applies that
// update in place, a setup module whose output a later run uses. terraform
// is measured when it is installed; TERRANE_TESTBENCH_BINARY measures a
// given terrane binary instead of one built from this module.
package testbench

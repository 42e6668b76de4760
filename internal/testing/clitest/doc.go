// Package clitest holds what the tests of the terrane command line share,
// those of package command (its units, run in process) and of package
// e2etest (the built binary, run in project directories): writing files,
// reading diagnostics wherever the terminal width wrapped them, following
// the output of a process still running, the state encryption OpenTofu
// writes, and clients of a serve endpoint. It takes nothing from the
// process's working directory or environment, so that every test using it
// may run in parallel.
package clitest

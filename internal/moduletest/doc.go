// Package moduletest runs the test files of OpenTofu's testing framework
// (*.tftest.hcl, *.tofutest.hcl and their JSON forms) against a
// configuration: it reads the files, plans and applies each run block
// through the engine's own entry points against throwaway in-memory stores,
// evaluates the assertions and expected failures, and destroys what each
// file created when the file is done.
//
// Runs that do not depend on one another, and separate files, run in
// parallel; results are reported in file and run order through a View, so
// the output reads as if everything ran one after another.
package moduletest

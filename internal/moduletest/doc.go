// Package moduletest runs the test files of OpenTofu's testing framework
// (*.tftest.hcl, *.tofutest.hcl and their JSON forms) against a
// configuration: it reads the files, plans and applies each run block
// through the engine's own entry points against throwaway in-memory stores,
// evaluates the assertions and expected failures, and destroys what each
// file created when the file is done.
//
// Files run one after another, as OpenTofu runs them, each cleaned up
// before the next starts; within a file, runs that do not depend on one
// another may run in parallel when the suite allows it, and results are
// reported in run order through a View, so the output reads as if they
// ran one after another.
package moduletest

package arguments

import (
	"flag"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// DefaultTestParallelism is how many run blocks of one file `terrane test`
// executes at once unless -parallelism says otherwise: one, as OpenTofu
// runs them (files always run one after another).
const DefaultTestParallelism = 1

// Test is `terrane test`'s command line.
type Test struct {
	View
	Vars []inputvars.VarOption
	// Filter lists the test files to run, as paths relative to the
	// working directory; empty runs them all.
	Filter []string
	// TestDirectory is the directory, relative to the working directory,
	// searched for test files besides the working directory itself.
	TestDirectory string
	Verbose       bool
	Parallelism   int
	// JSONInto is a file that receives the -json messages beside the
	// human output.
	JSONInto string
}

func addTestFlags(fs *flag.FlagSet, test *Test, filter *stringList) {
	addVarFlags(fs, &test.Vars)
	addViewFlags(fs, &test.View)
	fs.Var(filter, "filter", "run only this test file, given relative to the working directory (repeatable)")
	fs.StringVar(&test.TestDirectory, "test-directory", "tests", "the directory searched for test files besides the working directory")
	fs.BoolVar(&test.Verbose, "verbose", false, "print the plan or state of each run block")
	fs.StringVar(&test.JSONInto, "json-into", "", "also write the -json messages to this file")
	fs.IntVar(&test.Parallelism, "parallelism", DefaultTestParallelism, "number of run blocks of a file executed at once when they do not depend on each other")
}

// ParseTest parses `terrane test`'s arguments.
func ParseTest(args []string) (*Test, diags.Diagnostics) {
	test := &Test{}
	var filter stringList
	fs := newFlagSet("test")
	addTestFlags(fs, test, &filter)
	ds := parseFlags(fs, "test", args, &test.View)
	if ds.HasErrors() || test.Help {
		return test, ds
	}
	test.Filter = filter
	// Positional arguments are ignored, as OpenTofu's test command ignores
	// them.
	if test.JSON && test.JSONInto != "" {
		ds = ds.Append(diags.Errorf("Invalid output format", "The -json and -json-into arguments are mutually exclusive"))
	}
	if test.Parallelism < 1 {
		ds = ds.Append(diags.Errorf("Invalid -parallelism option",
			"The -parallelism option must be a whole number of at least 1, not %d.", test.Parallelism))
	}
	return test, ds
}

package arguments

import "github.com/terrane/terrane/internal/diags"

// Fmt is `terrane fmt [options] [target...]`'s command line.
type Fmt struct {
	View
	List, Write, Diff, Check, Recursive bool
	// Paths are the files and directories to format: the working
	// directory when none is given.
	Paths []string
	// Stdin is set by the single target "-": the standard input is
	// formatted onto the standard output, so nothing is listed or written.
	Stdin bool
}

// ParseFmt parses `terrane fmt`'s arguments.
func ParseFmt(args []string) (*Fmt, diags.Diagnostics) {
	f := &Fmt{}
	fs := newFlagSet("fmt")
	fs.BoolVar(&f.List, "list", true, "")
	fs.BoolVar(&f.Write, "write", true, "")
	fs.BoolVar(&f.Diff, "diff", false, "")
	fs.BoolVar(&f.Check, "check", false, "")
	fs.BoolVar(&f.Recursive, "recursive", false, "")
	fs.BoolVar(&f.NoColor, "no-color", false, "")
	if ds := parseFlagsRefusingHelp(fs, args); ds.HasErrors() {
		return f, ds
	}
	f.Paths = fs.Args()
	switch {
	case len(f.Paths) == 1 && f.Paths[0] == "-":
		f.Stdin, f.Paths = true, nil
		f.List, f.Write = false, false
	case len(f.Paths) == 0:
		f.Paths = []string{"."}
	}
	return f, nil
}

package arguments

import "github.com/terrane/terrane/internal/diags"

// Login is `terrane login [HOSTNAME]`'s command line.
type Login struct {
	View
	// Input is -input; login cannot work without it.
	Input bool
	// Args are the positional arguments: the command takes at most one,
	// the host, and says so itself.
	Args []string
}

// ParseLogin parses `terrane login`'s options.
func ParseLogin(args []string) (*Login, diags.Diagnostics) {
	login := &Login{}
	fs := newFlagSet("login")
	fs.BoolVar(&login.NoColor, "no-color", false, "")
	fs.BoolVar(&login.Input, "input", true, "")
	ds := parseFlagsRefusingHelp(fs, args)
	login.Args = fs.Args()
	return login, ds
}

// Logout is `terrane logout HOSTNAME`'s command line.
type Logout struct {
	View
	// Args are the positional arguments: the command takes exactly one,
	// the host, and says so itself.
	Args []string
}

// ParseLogout parses `terrane logout`'s options.
func ParseLogout(args []string) (*Logout, diags.Diagnostics) {
	logout := &Logout{}
	fs := newFlagSet("logout")
	fs.BoolVar(&logout.NoColor, "no-color", false, "")
	ds := parseFlagsRefusingHelp(fs, args)
	logout.Args = fs.Args()
	return logout, ds
}

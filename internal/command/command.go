package command

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/logging"
)

// Streams are the standard streams a command reads and writes.
type Streams struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// View is the global view options the command line gave (Run takes
	// them out of the command's arguments).
	View arguments.GlobalView
}

// commandFunc runs one command with the arguments after its name.
type commandFunc func(streams Streams, args []string) int

type commandInfo struct {
	run      commandFunc
	synopsis string
}

// commands lists every command by its full name ("providers schema").
func commands() map[string]commandInfo {
	return map[string]commandInfo{
		"version":            {runVersion, "Show the current Terrane version"},
		"get":                {runGet, "Install or upgrade the modules the configuration calls"},
		"init":               {runInit, "Prepare the working directory: install providers, lock their versions, create the state store"},
		"providers":          {runProvidersTree, "Show the providers required for this configuration"},
		"metadata functions": {runMetadataFunctions, "Show signatures and descriptions for the available functions"},
		"providers schema":   {runProvidersSchema, "Show schemas for the providers the configuration needs"},
		"providers lock":     {runProvidersLock, "Write provider checksums for several platforms into the lock file"},
		"providers mirror":   {runProvidersMirror, "Save local copies of the required providers for offline use"},
		"validate":           {runValidate, "Check whether the configuration is valid"},
		"fmt": {func(s Streams, args []string) int { return runFmt(args, s.Stdin, s.Stdout, s.Stderr) },
			"Reformat configuration files to the canonical style"},
		"console": {func(s Streams, args []string) int { return runConsole(args, s.Stdin, s.Stdout, s.Stderr) },
			"Try Terraform expressions at an interactive command prompt"},
		"serve": {func(s Streams, args []string) int { return runServe(args, s.Stdout, s.Stderr) },
			"Serve the state store over gRPC (Consul's ResourceService API)"},
		"watch": {func(s Streams, args []string) int { return runWatch(args, s.Stdout, s.Stderr) },
			"Stream changes to state records as they happen"},
		"status":  {runStatus, "Show the conditions a serve reconciler recorded for the workspace's resources"},
		"output":  {runOutput, "Show output values from the workspace's state"},
		"show":    {runShow, "Show the current state or a saved plan"},
		"plan":    {runPlan, "Show changes required by the current configuration"},
		"apply":   {runApply, "Create or update infrastructure"},
		"destroy": {runDestroy, "Destroy previously-created infrastructure"},
		"refresh": {runRefresh, "Update the state to match remote systems"},
		"import":  {runImport, "Associate existing infrastructure with a Terrane resource"},

		"state list":             {runStateList, "List resource instances in the workspace's state"},
		"state show":             {runStateShow, "Show one resource instance in the workspace's state"},
		"state mv":               {runStateMv, "Move resource instances to other addresses in the state"},
		"state rm":               {runStateRm, "Forget resource instances without destroying them"},
		"state pull":             {runStatePull, "Write the workspace's state as a Terraform state file to stdout"},
		"state push":             {runStatePush, "Replace the workspace's state with a Terraform or OpenTofu state file"},
		"state replace-provider": {runStateReplaceProvider, "Change the provider of resource instances in the state"},
		"state reencrypt":        {runStateReencrypt, "Write every record of the workspace again with the current encryption keys"},
		"workspace new":          {runWorkspaceNew, "Create a new workspace and select it"},
		"workspace select":       {runWorkspaceSelect, "Select a workspace"},
		"workspace list":         {runWorkspaceList, "List the project's workspaces"},
		"workspace show":         {runWorkspaceShow, "Show the name of the selected workspace"},
		"workspace delete":       {runWorkspaceDelete, "Delete a workspace"},
		"graph":                  {runGraph, "Print the plan, apply or destroy operation graph in the DOT language"},
		"login":                  {runLogin, "Obtain and save credentials for a remote host"},
		"logout":                 {runLogout, "Remove locally-stored credentials for a remote host"},
		"taint":                  {runTaint, "Mark a resource instance as not fully functional"},
		"force-unlock":           {runForceUnlock, "Release the claims of a run that stopped for good"},
		"untaint":                {runUntaint, "Remove the 'tainted' state from a resource instance"},
		"test":                   {runTest, "Run the configuration's tests (*.tftest.hcl, *.tofutest.hcl) against throwaway state"},
	}
}

// Run runs the command named by args (os.Args without the program name) and
// returns the process exit code.
func Run(args []string, streams Streams) int {
	routeStandardLog()
	originalWorkingDir = ""
	args, chdirErr := applyChdir(args)
	if chdirErr != nil {
		fmt.Fprintf(streams.Stderr, "Error: %s\n", chdirErr)
		return 1
	}
	if len(args) == 0 || args[0] == "-help" || args[0] == "--help" || args[0] == "-h" || args[0] == "help" {
		printUsage(streams.Stdout)
		return 0
	}
	if args[0] == "-version" || args[0] == "--version" || args[0] == "-v" {
		return runVersion(streams, args[1:])
	}
	table := commands()
	// The longest matching name wins, so "providers schema" beats "providers".
	for n := min(len(args), 3); n > 0; n-- {
		name := strings.Join(args[:n], " ")
		if info, ok := table[name]; ok {
			view, rest := arguments.ParseGlobalView(args[n:])
			streams.View = view
			return info.run(streams, viewFlagsFirst(rest))
		}
	}
	fmt.Fprintf(streams.Stderr, "Terrane has no command named %q.\n\nTo see all of Terrane's commands, run:\n  terrane -help\n", args[0])
	return 1
}

// viewFlags are the options OpenTofu accepts anywhere on a command line,
// after positional arguments too (arguments.ParseView): they say how
// output looks, not what the command does.
var viewFlags = map[string]bool{"-no-color": true, "-compact-warnings": true}

// viewFlagsFirst moves the view flags to the front of a command's
// arguments, so that `state show ADDR -no-color` reads as OpenTofu reads
// it; Go's flag parsing stops at the first positional argument. Nothing
// after "--" is touched.
func viewFlagsFirst(args []string) []string {
	var flags, rest []string
	for i, arg := range args {
		if arg == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if viewFlags[arg] {
			flags = append(flags, arg)
			continue
		}
		rest = append(rest, arg)
	}
	if len(flags) == 0 {
		return args
	}
	return append(flags, rest...)
}

// originalWorkingDir is the directory the command started in, before
// -chdir moved it: what path.cwd evaluates to. "" when no -chdir was given.
var originalWorkingDir string

// applyChdir handles the global -chdir=DIR option, which must come before
// the command name, as in Terraform.
func applyChdir(args []string) ([]string, error) {
	if len(args) == 0 || !strings.HasPrefix(args[0], "-chdir") {
		return args, nil
	}
	dir, ok := strings.CutPrefix(args[0], "-chdir=")
	rest := args[1:]
	if !ok {
		if len(rest) == 0 {
			return nil, fmt.Errorf("the -chdir option requires a directory")
		}
		dir, rest = rest[0], rest[1:]
	}
	if wd, err := os.Getwd(); err == nil {
		originalWorkingDir = wd
	}
	if err := os.Chdir(dir); err != nil {
		return nil, fmt.Errorf("cannot switch to directory %q given in -chdir: %w", dir, err)
	}
	return rest, nil
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage: terrane [global options] <subcommand> [args]\n\n")
	fmt.Fprintf(w, "Terrane reads Terraform-language configurations and drives Terraform and\nPulumi providers, keeping state as versioned records.\n\nCommands:\n")
	table := commands()
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-20s %s\n", name, table[name].synopsis)
	}
	fmt.Fprintf(w, "\nGlobal options:\n  -chdir=DIR           Switch to a different working directory first\n  -help                Show this help output\n  -version             Show the current Terrane version\n")
}

// newFlagSet returns a flag set that reports errors on stderr in the
// command's name and does not exit the process.
func newFlagSet(name string, streams Streams) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(streams.Stderr)
	return fs
}

// routeStandardLog sends what libraries write through the standard log
// package (service discovery, for one) into Terrane's own log at debug
// level, instead of onto the user's terminal.
func routeStandardLog() {
	log.SetFlags(0)
	log.SetOutput(logging.Named("lib").StandardWriter(&hclog.StandardLoggerOptions{InferLevels: true, ForceLevel: hclog.Debug}))
}

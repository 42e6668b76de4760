package command

import (
	"flag"
	"io"
	"log"

	"github.com/hashicorp/go-hclog"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/logging"
)

// commandFunc runs one command with the arguments after its name. It may
// return runResultHelp to have the command's help printed after what it
// wrote, as OpenTofu's commands return cli.RunResultHelp.
type commandFunc func(streams views.Streams, args []string) int

// runResultHelp is what a command returns when its arguments are wrong and
// its help should follow the error; the process then exits 1.
const runResultHelp = -18511

type commandInfo struct {
	run commandFunc
	// synopsis is the line the command has in its parent's list of
	// commands, in OpenTofu's words.
	synopsis string
	// hidden commands are left out of the lists of commands: aliases and
	// obsolete commands, as in OpenTofu.
	hidden bool
	// aliasOf names the command an alias runs, whose help it shares.
	aliasOf string
}

// commands lists every command by its full name ("providers schema").
func commands() map[string]commandInfo {
	table := map[string]commandInfo{
		"init":     {run: runInit, synopsis: "Prepare your working directory for other commands"},
		"validate": {run: runValidate, synopsis: "Check whether the configuration is valid"},
		"plan":     {run: runPlan, synopsis: "Show changes required by the current configuration"},
		"apply":    {run: runApply, synopsis: "Create or update infrastructure"},
		"destroy":  {run: runDestroy, synopsis: "Destroy previously-created infrastructure"},

		"console":            {run: runConsole, synopsis: "Try Terrane expressions at an interactive command prompt"},
		"fmt":                {run: runFmt, synopsis: "Reformat your configuration in the standard style"},
		"force-unlock":       {run: runForceUnlock, synopsis: "Release a stuck lock on the current workspace"},
		"get":                {run: runGet, synopsis: "Install or upgrade remote Terrane modules"},
		"graph":              {run: runGraph, synopsis: "Generate a Graphviz graph of the steps in an operation"},
		"import":             {run: runImport, synopsis: "Associate existing infrastructure with a Terrane resource"},
		"login":              {run: runLogin, synopsis: "Obtain and save credentials for a remote host"},
		"logout":             {run: runLogout, synopsis: "Remove locally-stored credentials for a remote host"},
		"metadata":           {run: runGroup, synopsis: "Metadata related commands"},
		"metadata functions": {run: runMetadataFunctions, synopsis: "Show signatures and descriptions for the available functions"},
		"output":             {run: runOutput, synopsis: "Show output values from your root module"},
		"providers":          {run: runProvidersTree, synopsis: "Show the providers required for this configuration"},
		"providers lock":     {run: runProvidersLock, synopsis: "Write out dependency locks for the configured providers"},
		"providers mirror":   {run: runProvidersMirror, synopsis: "Save local copies of all required provider plugins"},
		"providers schema":   {run: runProvidersSchema, synopsis: "Show schemas for the providers used in the configuration"},
		"push":               {run: runPush, synopsis: "Obsolete command for Terraform Enterprise legacy (v1)", hidden: true},
		"refresh":            {run: runRefresh, synopsis: "Update the state to match remote systems"},
		"show":               {run: runShow, synopsis: "Show the current state or a saved plan"},
		"taint":              {run: runTaint, synopsis: "Mark a resource instance as not fully functional"},
		"test":               {run: runTest, synopsis: "Execute integration tests for Terrane modules"},
		"untaint":            {run: runUntaint, synopsis: "Remove the 'tainted' state from a resource instance"},
		"version":            {run: runVersion, synopsis: "Show the current Terrane version"},

		"state":                  {run: runGroup, synopsis: "Advanced state management"},
		"state list":             {run: runStateList, synopsis: "List resources in the state"},
		"state ls":               {run: runStateList, hidden: true, aliasOf: "state list"},
		"state mv":               {run: runStateMv, synopsis: "Move an item in the state"},
		"state move":             {run: runStateMv, hidden: true, aliasOf: "state mv"},
		"state pull":             {run: runStatePull, synopsis: "Pull current state and output to stdout"},
		"state push":             {run: runStatePush, synopsis: "Update remote state from a local state file"},
		"state replace-provider": {run: runStateReplaceProvider, synopsis: "Replace provider in the state"},
		"state rm":               {run: runStateRm, synopsis: "Remove instances from the state"},
		"state remove":           {run: runStateRm, hidden: true, aliasOf: "state rm"},
		"state show":             {run: runStateShow, synopsis: "Show a resource in the state"},

		"workspace":        {run: runWorkspaceGroup, synopsis: "Workspace management"},
		"workspace delete": {run: runWorkspaceDelete, synopsis: "Delete a workspace"},
		"workspace list":   {run: runWorkspaceList, synopsis: "List Workspaces"},
		"workspace new":    {run: runWorkspaceNew, synopsis: "Create a new workspace"},
		"workspace select": {run: runWorkspaceSelect, synopsis: "Select a workspace"},
		"workspace show":   {run: runWorkspaceShow, synopsis: "Show the name of the current workspace"},

		// Terrane's own commands, left out of the lists of commands so that
		// the help reads as OpenTofu's does.
		"serve":           {run: runServe, synopsis: "Serve the state store over gRPC (Consul's ResourceService API)", hidden: true},
		"watch":           {run: runWatch, synopsis: "Stream changes to state records as they happen", hidden: true},
		"status":          {run: runStatus, synopsis: "Show the conditions a serve reconciler recorded for the workspace's resources", hidden: true},
		"state reencrypt": {run: runStateReencrypt, synopsis: "Write every record of the workspace again with the current encryption keys", hidden: true},
	}
	// The env commands are the workspace commands under their old name,
	// as in OpenTofu: hidden from the top-level help, and warning that the
	// name is deprecated.
	table["env"] = commandInfo{run: runWorkspaceGroup, hidden: true, aliasOf: "workspace"}
	for _, sub := range []string{"delete", "list", "new", "select"} {
		info := table["workspace "+sub]
		info.aliasOf = "workspace " + sub
		table["env "+sub] = info
	}
	return table
}

// primaryCommands are the commands the top-level help lists first, in the
// order of the usual workflow.
var primaryCommands = []string{"init", "validate", "plan", "apply", "destroy"}

// runGroup is a command that only groups subcommands: it prints its help.
func runGroup(views.Streams, []string) int { return runResultHelp }

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

// newFlagSet returns a flag set that does not exit the process and
// writes nothing itself: the command reports a parse error in OpenTofu's
// words, and -help is the runner's.
func newFlagSet(name string, _ views.Streams) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// routeStandardLog sends what libraries write through the standard log
// package (service discovery, for one) into Terrane's own log at debug
// level, instead of onto the user's terminal.
func routeStandardLog() {
	log.SetFlags(0)
	log.SetOutput(logging.Named("lib").StandardWriter(&hclog.StandardLoggerOptions{InferLevels: true, ForceLevel: hclog.Debug}))
}

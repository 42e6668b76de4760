package command

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/mattn/go-shellwords"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/ui"
)

// envCLIArgs names the environment variable whose options are added to
// every command line; envCLIArgs_COMMAND adds to one command's.
const envCLIArgs = "TF_CLI_ARGS"

// Run runs the command named by args (os.Args without the program name) and
// returns the process exit code. It reads the command line as OpenTofu's
// command runner does: -chdir first, then the options of TF_CLI_ARGS and
// TF_CLI_ARGS_COMMAND, -version anywhere meaning the version command,
// -help anywhere meaning the command's help, and the longest command name
// the words at the front of the line spell.
func Run(args []string, streams views.Streams) int {
	routeStandardLog()
	originalWorkingDir = ""
	reportCLIConfigProblems(streams)
	args, err := applyChdir(args)
	if err != nil {
		fmt.Fprintln(streams.Stderr, err)
		return 1
	}
	table := commands()
	if args, err = mergeEnvArgs(table, args); err != nil {
		fmt.Fprintln(streams.Stderr, err)
		return 1
	}
	args = versionAlias(args)
	line := parseCommandLine(table, args)
	if line.command != "" {
		if _, ok := table[line.command]; !ok {
			fmt.Fprintf(streams.Stderr, "Terrane has no command named %q.%s\n\nTo see all of Terrane's top-level commands, run:\n  terrane -help\n\n",
				line.command, commandSuggestion(table, line.command))
			return 1
		}
	}
	switch {
	case line.command == "" && line.help:
		fmt.Fprintln(streams.Stdout, topLevelHelp(table))
		return 0
	case line.command == "":
		// As OpenTofu's runner does, the help goes where its errors go:
		// to stdout.
		fmt.Fprintln(streams.Stdout, topLevelHelp(table))
		return 127
	}
	info := table[line.command]
	if line.help && helpText(table, line.command) != "" {
		printCommandHelp(streams.Stdout, line.command)
		return 0
	}
	if len(line.topFlags) > 0 {
		fmt.Fprint(streams.Stdout, "Invalid flags before the subcommand. If these flags are for\nthe subcommand, please put them after the subcommand.\n\n")
		printCommandHelp(streams.Stdout, line.command)
		return 1
	}
	view, rest := arguments.ParseGlobalView(line.args)
	streams.View, streams.Name = view, line.command
	code := info.run(streams, viewFlagsFirst(rest))
	if code == runResultHelp {
		printCommandHelp(streams.Stdout, line.command)
		return 1
	}
	return code
}

// A commandLine is what the runner reads from the arguments.
type commandLine struct {
	// command is the command's full name: the longest name in the table
	// that the leading words spell, else the first word.
	command string
	// args are the arguments after the command's name.
	args []string
	// help is set by -h, -help or --help anywhere before "--".
	help bool
	// topFlags are options given before the command name.
	topFlags []string
}

func isHelpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

func isVersionFlag(arg string) bool { return arg == "-v" || arg == "-version" || arg == "--version" }

// parseCommandLine reads args as OpenTofu's runner (mitchellh/cli) does.
func parseCommandLine(table map[string]commandInfo, args []string) commandLine {
	var line commandLine
	found := false
	for i, arg := range args {
		if arg == "--" {
			break
		}
		if isHelpFlag(arg) {
			line.help = true
			continue
		}
		if found {
			continue
		}
		if isVersionFlag(arg) {
			continue
		}
		if arg != "" && arg[0] == '-' {
			line.topFlags = append(line.topFlags, arg)
			continue
		}
		if arg == "" {
			continue
		}
		found = true
		line.command = arg
		if strings.ContainsRune(arg, ' ') {
			line.command = ""
			return line
		}
		// The name is the longest run of leading words that names a
		// command; words end at an option, an empty word or one with a
		// space.
		end := i
		for end < len(args) && args[end] != "" && args[end][0] != '-' && !strings.ContainsRune(args[end], ' ') {
			end++
		}
		used := 1
		for n := end - i; n > 0; n-- {
			if _, ok := table[strings.Join(args[i:i+n], " ")]; ok {
				line.command, used = strings.Join(args[i:i+n], " "), n
				break
			}
		}
		line.args = args[i+used:]
	}
	return line
}

// versionAlias turns a command line holding -v, -version or --version
// anywhere into the version command's, as OpenTofu does.
func versionAlias(args []string) []string {
	for _, arg := range args {
		if isVersionFlag(arg) {
			return append([]string{"version"}, args...)
		}
	}
	return args
}

// mergeEnvArgs adds the options of TF_CLI_ARGS and then those of
// TF_CLI_ARGS_COMMAND (the command's name with '_' for spaces and '-')
// right after the command's name.
func mergeEnvArgs(table map[string]commandInfo, args []string) ([]string, error) {
	command := parseCommandLine(table, args).command
	args, err := mergeEnvArgsFrom(envCLIArgs, command, args)
	if err != nil {
		return nil, err
	}
	suffix := strings.NewReplacer("-", "_", " ", "_").Replace(command)
	return mergeEnvArgsFrom(envCLIArgs+"_"+suffix, command, args)
}

func mergeEnvArgsFrom(name, command string, args []string) ([]string, error) {
	value := os.Getenv(name)
	if value == "" {
		return args, nil
	}
	extra, err := shellwords.Parse(value)
	if err != nil {
		return nil, fmt.Errorf("Error parsing extra CLI args from %s: %s", name, err)
	}
	// They go after the first argument that is the command name's last
	// word, or first when there is none.
	last := command
	if i := strings.LastIndex(last, " "); i >= 0 {
		last = last[i+1:]
	}
	at := 0
	for i, arg := range args {
		if arg == last {
			at = i + 1
			break
		}
	}
	merged := make([]string, 0, len(args)+len(extra))
	merged = append(merged, args[:at]...)
	merged = append(merged, extra...)
	return append(merged, args[at:]...), nil
}

// commandSuggestion is " Did you mean "NAME"?" for a command name close to
// the one given, or "".
func commandSuggestion(table map[string]commandInfo, given string) string {
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	// OpenTofu takes the first close name in its map's random order;
	// the closest, then the first by name, is the same when there is one.
	sort.Strings(names)
	best, bestDistance := "", 3
	for _, name := range names {
		if d := levenshtein.Distance(given, name, nil); d < bestDistance {
			best, bestDistance = name, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}

// originalWorkingDir is the directory the command started in, before
// -chdir moved it: what path.cwd evaluates to. "" when no -chdir was given.
var originalWorkingDir string

// applyChdir handles the global -chdir=DIR option, which must come before
// the command name; the last one given wins, as in OpenTofu.
func applyChdir(args []string) ([]string, error) {
	dir, at := "", -1
	for i, arg := range args {
		if !strings.HasPrefix(arg, "-") {
			break
		}
		if arg == "-chdir" || arg == "-chdir=" {
			return nil, fmt.Errorf("Invalid -chdir option: must include an equals sign followed by a directory path, like -chdir=example")
		}
		if value, ok := strings.CutPrefix(arg, "-chdir="); ok {
			dir, at = value, i
		}
	}
	if at < 0 {
		return args, nil
	}
	if wd, err := os.Getwd(); err == nil {
		originalWorkingDir = wd
	}
	if err := os.Chdir(dir); err != nil {
		return nil, fmt.Errorf("Error handling -chdir option: %s", err)
	}
	return append(args[:at:at], args[at+1:]...), nil
}

// runPush is the obsolete push command, kept as OpenTofu keeps it: to say
// what to do instead.
func runPush(streams views.Streams, args []string) int {
	ui.WriteDiagnostics(streams.Stderr, diags.Diagnostics{diags.Errorf(`Command "terrane push" is no longer supported`,
		"This command was used to push configuration to Terraform Enterprise legacy (v1), which has now reached end-of-life. To push configuration to a new cloud backend, use its REST API.")},
		nil, ui.ColorEnabled(slices.Contains(args, "-no-color")))
	return 1
}

// flagParseError writes OpenTofu's error for an option a command does not
// define, with the empty line after it that OpenTofu's older commands
// write, and returns runResultHelp so that the command's help follows.
func flagParseError(w io.Writer, err error, color bool) int {
	writeLegacyDiagnostics(w, diags.Diagnostics{diags.Errorf("Failed to parse command-line flags", "%s", err)}, color)
	return runResultHelp
}

// reportCLIConfigProblems writes the problems of the CLI configuration
// before any command runs, as OpenTofu does (before -chdir, so that a
// relative TF_CLI_CONFIG_FILE names a file in the directory the command
// was started in): without colour, warnings on stdout and errors on
// stderr. The commands then go on with what could be read.
func reportCLIConfigProblems(streams views.Streams) {
	ds := cliconfig.LoadAtStartup()
	if len(ds) == 0 {
		return
	}
	fmt.Fprintln(streams.Stderr, "There are some problems with the CLI configuration:")
	ui.DiagnosticView{}.Write(streams.Stdout, streams.Stderr, ds, nil)
	if ds.HasErrors() {
		fmt.Fprint(streams.Stderr, "As a result of the above problems, Terrane may not behave as intended.\n\n\n")
	}
}

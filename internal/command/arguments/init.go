package arguments

import (
	"errors"
	"flag"
	"time"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// Init holds `terrane init`'s options, as OpenTofu's init takes them.
type Init struct {
	View
	// Help is set by -help: the command prints its help and succeeds.
	Help bool

	Backend       bool
	BackendConfig []string
	MigrateState  bool
	ForceCopy     bool
	Reconfigure   bool
	Get           bool
	Upgrade       bool
	Input         bool
	Lockfile      string
	PluginDirs    []string
	FromModule    string
	TestDirectory string
	// Lock and LockTimeout are accepted as OpenTofu accepts them: they
	// govern the state lock during a backend migration, and Terrane's
	// stores copy records without one.
	Lock        bool
	LockTimeout time.Duration
	// JSONInto is a file that also receives the JSON messages.
	JSONInto string
	Vars     []inputvars.VarOption
}

// OutputView holds the view options init and get take out of their
// arguments wherever they stand, before parsing their own; the options of
// every command (GlobalView) were taken out already.
type OutputView struct {
	NoColor         bool
	CompactWarnings bool
}

// ExtractOutputView takes -no-color and -compact-warnings out of args.
func ExtractOutputView(args []string) (OutputView, []string) {
	var view OutputView
	var rest []string
	for i, arg := range args {
		if arg == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		switch arg {
		case "-no-color":
			view.NoColor = true
		case "-compact-warnings":
			view.CompactWarnings = true
		default:
			rest = append(rest, arg)
		}
	}
	return view, rest
}

// ParseInit parses init's arguments (after ExtractOutputView). Its
// diagnostics are OpenTofu's: the flag package's complaint, options that
// exclude one another, and positional arguments.
func ParseInit(args []string) (*Init, diags.Diagnostics) {
	init := &Init{}
	fs := newFlagSet("init")
	var cloud bool
	fs.BoolVar(&init.Backend, "backend", true, "")
	fs.BoolVar(&cloud, "cloud", true, "")
	fs.Var((*stringList)(&init.BackendConfig), "backend-config", "")
	fs.StringVar(&init.FromModule, "from-module", "", "")
	fs.BoolVar(&init.Get, "get", true, "")
	fs.BoolVar(&init.Upgrade, "upgrade", false, "")
	fs.Var((*stringList)(&init.PluginDirs), "plugin-dir", "")
	fs.StringVar(&init.Lockfile, "lockfile", "", "")
	fs.StringVar(&init.TestDirectory, "test-directory", "tests", "")
	fs.BoolVar(&init.Lock, "lock", true, "")
	fs.DurationVar(&init.LockTimeout, "lock-timeout", 0, "")
	fs.BoolVar(&init.ForceCopy, "force-copy", false, "")
	fs.BoolVar(&init.Reconfigure, "reconfigure", false, "")
	fs.BoolVar(&init.MigrateState, "migrate-state", false, "")
	var ignoreRemoteVersion bool
	fs.BoolVar(&ignoreRemoteVersion, "ignore-remote-version", false, "")
	fs.BoolVar(&init.Input, "input", true, "")
	fs.BoolVar(&init.JSON, "json", false, "")
	fs.StringVar(&init.JSONInto, "json-into", "", "")
	addVarFlags(fs, &init.Vars)
	var ds diags.Diagnostics
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			init.Help = true
			return init, nil
		}
		return init, ds.Append(diags.Errorf("Failed to parse command-line flags", "%s", err.Error()))
	}
	if init.JSON {
		init.Input = false
		if init.JSONInto != "" {
			return init, ds.Append(diags.Errorf("Invalid output format",
				"The -json and -json-into arguments are mutually exclusive"))
		}
	}
	backendSet, cloudSet := flagIsSet(fs, "backend"), flagIsSet(fs, "cloud")
	switch {
	case backendSet && cloudSet:
		return init, ds.Append(diags.Errorf("Wrong combination of options",
			"The -backend and -cloud options are aliases of one another and mutually-exclusive in their use"))
	case cloudSet:
		init.Backend = cloud
	}
	if init.MigrateState && init.Reconfigure {
		return init, ds.Append(diags.Errorf("Wrong combination of options",
			"The -migrate-state and -reconfigure options are mutually-exclusive"))
	}
	// Copying state happens only in a migration, so -force-copy implies
	// -migrate-state.
	init.MigrateState = init.MigrateState || init.ForceCopy
	if fs.NArg() > 0 {
		ds = ds.Append(diags.Errorf("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?"))
	}
	return init, ds
}

func flagIsSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// Get holds `terrane get`'s options.
type Get struct {
	View
	Help          bool
	Update        bool
	TestDirectory string
	JSONInto      string
	Vars          []inputvars.VarOption
}

// ParseGet parses get's arguments (after ExtractOutputView).
func ParseGet(args []string) (*Get, diags.Diagnostics) {
	get := &Get{}
	fs := newFlagSet("get")
	fs.BoolVar(&get.Update, "update", false, "")
	fs.StringVar(&get.TestDirectory, "test-directory", "tests", "")
	fs.BoolVar(&get.JSON, "json", false, "")
	fs.StringVar(&get.JSONInto, "json-into", "", "")
	addVarFlags(fs, &get.Vars)
	var ds diags.Diagnostics
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			get.Help = true
			return get, nil
		}
		return get, ds.Append(diags.Errorf("Failed to parse command-line flags", "%s", err.Error()))
	}
	if get.JSON && get.JSONInto != "" {
		return get, ds.Append(diags.Errorf("Invalid output format",
			"The -json and -json-into arguments are mutually exclusive"))
	}
	if fs.NArg() > 0 {
		ds = ds.Append(diags.Errorf("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?"))
	}
	return get, ds
}

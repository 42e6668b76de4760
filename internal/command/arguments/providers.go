package arguments

import (
	"errors"
	"flag"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// ProviderJob holds the options `providers lock` and `providers mirror`
// share, as OpenTofu takes them: platforms, variables for the
// configuration, and -json or -json-into.
type ProviderJob struct {
	// Help is set by -help: the command prints its help and succeeds.
	Help      bool
	Platforms []string
	Vars      []inputvars.VarOption
	JSON      bool
	// JSONInto is a file that also receives the JSON messages.
	JSONInto string
}

// ProvidersLock holds `providers lock`'s options.
type ProvidersLock struct {
	ProviderJob
	FSMirror  string
	NetMirror string
	// Providers are the source addresses given to limit the lock to.
	Providers []string
}

// ProvidersMirror holds `providers mirror`'s options.
type ProvidersMirror struct {
	ProviderJob
	// Directory is where the packages go.
	Directory string
}

func (job *ProviderJob) addFlags(fs *flag.FlagSet) {
	fs.Var((*stringList)(&job.Platforms), "platform", "")
	addVarFlags(fs, &job.Vars)
	fs.BoolVar(&job.JSON, "json", false, "")
	fs.StringVar(&job.JSONInto, "json-into", "", "")
}

// parse runs fs.Parse and reports what OpenTofu reports of the flags.
func (job *ProviderJob) parse(fs *flag.FlagSet, args []string) diags.Diagnostics {
	var ds diags.Diagnostics
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			job.Help = true
			return nil
		}
		ds = ds.Append(diags.Errorf("Failed to parse command-line flags", "%s", err.Error()))
	}
	return ds
}

func (job *ProviderJob) checkView() diags.Diagnostics {
	if job.JSON && job.JSONInto != "" {
		return diags.Diagnostics{diags.Errorf("Invalid output format", "The -json and -json-into arguments are mutually exclusive")}
	}
	return nil
}

// ParseProvidersLock parses `providers lock`'s arguments (after
// ExtractOutputView).
func ParseProvidersLock(args []string) (*ProvidersLock, diags.Diagnostics) {
	lock := &ProvidersLock{}
	fs := newFlagSet("providers lock")
	lock.addFlags(fs)
	fs.StringVar(&lock.FSMirror, "fs-mirror", "", "")
	fs.StringVar(&lock.NetMirror, "net-mirror", "", "")
	ds := lock.parse(fs, args)
	if lock.Help {
		return lock, nil
	}
	if lock.FSMirror != "" && lock.NetMirror != "" {
		ds = ds.Append(diags.Errorf("Invalid installation method options",
			"The -fs-mirror and -net-mirror command line options are mutually-exclusive."))
	}
	ds = ds.Append(lock.checkView())
	if !ds.HasErrors() {
		lock.Providers = fs.Args()
	}
	return lock, ds
}

// ParseProvidersMirror parses `providers mirror`'s arguments (after
// ExtractOutputView).
func ParseProvidersMirror(args []string) (*ProvidersMirror, diags.Diagnostics) {
	mirror := &ProvidersMirror{}
	fs := newFlagSet("providers mirror")
	mirror.addFlags(fs)
	ds := mirror.parse(fs, args)
	if mirror.Help {
		return mirror, nil
	}
	if fs.NArg() != 1 {
		ds = ds.Append(diags.Errorf("Wrong number of arguments",
			"The providers mirror command requires an output directory as a command-line argument."))
	} else {
		mirror.Directory = fs.Arg(0)
	}
	return mirror, ds.Append(mirror.checkView())
}

// ProvidersSchema is `terrane providers schema -json`'s command line.
type ProvidersSchema struct {
	View
}

// ParseProvidersSchema parses `terrane providers schema`'s arguments: -json
// is required, and its absence is reported beside a flag error.
// Positional arguments are ignored, as OpenTofu ignores them.
func ParseProvidersSchema(args []string) (*ProvidersSchema, diags.Diagnostics) {
	schema := &ProvidersSchema{}
	fs := newFlagSet("providers schema")
	fs.BoolVar(&schema.JSON, "json", false, "")
	fs.BoolVar(&schema.NoColor, "no-color", false, "")
	ds := parseFlagsRefusingHelp(fs, args)
	if !schema.JSON {
		ds = ds.Append(diags.Errorf("Output only in json is allowed",
			"The `terrane providers schema` command requires the `-json` flag."))
	}
	return schema, ds
}

// Providers is `terrane providers`'s command line: -no-color only.
type Providers struct {
	View
}

// ParseProviders parses `terrane providers`'s arguments, which take no
// positional argument.
func ParseProviders(args []string) (*Providers, diags.Diagnostics) {
	providers := &Providers{}
	fs := newFlagSet("providers")
	fs.BoolVar(&providers.NoColor, "no-color", false, "")
	if ds := parseFlagsRefusingHelp(fs, args); ds.HasErrors() {
		return providers, ds
	}
	if fs.NArg() > 0 {
		return providers, diags.Diagnostics{unexpectedArgument()}
	}
	return providers, nil
}

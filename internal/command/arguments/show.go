package arguments

import (
	"errors"
	"flag"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// ShowTarget is what `terrane show` shows.
type ShowTarget int

const (
	// ShowPath is a path given alone: a plan file or a state file.
	ShowPath ShowTarget = iota
	// ShowState is the workspace's state: no argument, or -state.
	ShowState
	// ShowPlan is the saved plan -plan=FILE names.
	ShowPlan
	// ShowConfig is the configuration, -config.
	ShowConfig
)

// Show is `terrane show [options] [PATH]`'s command line.
type Show struct {
	View
	Target ShowTarget
	// Path is the file to show, for ShowPath and ShowPlan.
	Path          string
	ShowSensitive bool
	Vars          []inputvars.VarOption
}

// ParseShow parses `terrane show`'s arguments, as OpenTofu's show parses
// them: -state, -plan=FILE and -config choose what to show; without them
// at most one path may be given.
func ParseShow(args []string) (*Show, diags.Diagnostics) {
	show := &Show{}
	var ds diags.Diagnostics
	var stateTarget, configTarget bool
	var planTarget, moduleTarget string
	fs := newFlagSet("show")
	fs.BoolVar(&show.JSON, "json", false, "")
	fs.BoolVar(&show.NoColor, "no-color", false, "")
	fs.BoolVar(&show.ShowSensitive, "show-sensitive", false, "")
	fs.BoolVar(&stateTarget, "state", false, "")
	fs.StringVar(&planTarget, "plan", "", "")
	fs.BoolVar(&configTarget, "config", false, "")
	fs.StringVar(&moduleTarget, "module", "", "")
	addVarFlags(fs, &show.Vars)
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		show.Help = true
		return show, nil
	} else if err != nil {
		// "options", not "flags": OpenTofu's show words it so.
		ds = ds.Append(diags.Errorf("Failed to parse command-line options", "%s", err))
	}
	if configTarget && !show.JSON {
		return show, ds.Append(diags.Errorf("JSON output required for configuration", "The -config option requires -json to be specified."))
	}
	if moduleTarget != "" && !show.JSON {
		return show, ds.Append(diags.Errorf("JSON output required for module", "The -module=DIR option requires -json to be specified."))
	}
	if planTarget == "" && moduleTarget == "" && !stateTarget && !configTarget {
		switch fs.NArg() {
		case 0:
			show.Target = ShowState
		case 1:
			show.Target, show.Path = ShowPath, fs.Arg(0)
		default:
			ds = ds.Append(diags.Errorf("Too many command line arguments", "Expected at most one positional argument for the legacy positional argument mode."))
		}
		return show, ds
	}
	if fs.NArg() != 0 {
		return show, ds.Append(diags.Errorf("Unexpected command line arguments", "This command does not expect any positional arguments when using a target-selection option."))
	}
	return show, ds.Append(show.chooseTarget(stateTarget, configTarget, planTarget, moduleTarget))
}

// chooseTarget takes the one target-selection option given.
func (show *Show) chooseTarget(stateTarget, configTarget bool, planTarget, moduleTarget string) diags.Diagnostics {
	targets := 0
	if stateTarget {
		targets++
		show.Target = ShowState
	}
	if planTarget != "" {
		targets++
		show.Target, show.Path = ShowPlan, planTarget
	}
	if configTarget {
		targets++
		show.Target = ShowConfig
	}
	if moduleTarget != "" {
		// Terrane has no per-module metadata view: refuse it by name.
		return diags.Diagnostics{diags.Errorf("Unsupported option -module",
			"Terrane cannot show the metadata of a single module (-module=%s). Use \"terrane show -json -config\" for the whole configuration.", moduleTarget)}
	}
	if targets != 1 {
		return diags.Diagnostics{diags.Errorf("Conflicting object types to show",
			"The -state, -plan=FILENAME, -config, and -module=DIR options are mutually-exclusive, to specify which kind of object to show.")}
	}
	return nil
}

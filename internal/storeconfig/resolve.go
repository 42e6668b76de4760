package storeconfig

import (
	"fmt"
	"os"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// initRequiredSummary is the summary of the diagnostic that sends the user
// to init, as OpenTofu words it.
const initRequiredSummary = `Backend initialization required: please run "terrane init"`

func initRequired(reason string) diags.Diagnostic {
	return diags.Errorf(initRequiredSummary,
		"Reason: %s\n\n"+
			"The backend says where Terrane keeps this working directory's state. Changes to it "+
			"require initialization, so that Terrane can check the new store, copy existing state "+
			"into it and record the choice. Run \"terrane init\", with -migrate-state to copy the "+
			"state from the store used so far or -reconfigure to use the new store as it is.\n\n"+
			"If the reason above is not what you meant, check the configuration and the %s* "+
			"environment variables; nothing has been changed.", reason, EnvPrefix)
}

// ForCommand returns the store a command other than init uses in dir, or
// an error diagnostic saying init must run first because the
// configuration's backend block, or the environment, no longer names the
// store init recorded. block is the root module's backend block (nil when
// there is none); environ is the environment, as os.Environ gives it.
//
// Environment variables override the recorded arguments, so credentials
// can come from them on every run; but they may not name another store.
func ForCommand(dir string, block *config.Backend, environ []string) (Settings, diags.Diagnostics) {
	written, ds := DecodeBlock(block)
	fromEnv, envDiags := FromEnvironment(environ)
	ds = ds.Append(envDiags)
	if ds.HasErrors() {
		return Settings{}, ds
	}
	rec, err := ReadRecord(dir)
	if err != nil {
		return Settings{}, ds.Append(diags.Errorf("Cannot read the recorded backend", "%s.", diags.Capitalize(err.Error())))
	}
	if rec == nil {
		chosen := Settings{}
		if written != nil {
			chosen = *written
		}
		chosen = chosen.Merge(fromEnv)
		switch {
		case written != nil:
			return Settings{}, ds.Append(initRequired(`Initial configuration of the requested backend "terrane"`))
		case chosen.Identity(dir) != (Settings{}).Identity(dir) && hasDefaultStore(dir):
			// The working directory keeps state in the embedded store;
			// silently using another one would leave it behind.
			return Settings{}, ds.Append(initRequired(fmt.Sprintf("%s %s, but this working directory keeps its state in %s and has not been initialized for another store",
				namedBy(fromEnv), chosen.Describe(), (Settings{}).Describe())))
		}
		// Never initialized for a store: what the environment names (a
		// working directory that never kept state has nothing to lose by
		// it), else the embedded default, as before backends could be
		// configured.
		if err := chosen.Validate(); err != nil {
			return Settings{}, ds.Append(diags.Errorf("Invalid backend configuration", "With the %s environment variables: %s.", EnvPrefix+"*", err))
		}
		return chosen, ds
	}
	switch {
	case written == nil && rec.Backend.Block != nil:
		return Settings{}, ds.Append(initRequired(`Unsetting the previously set backend "terrane"`))
	case !sameBlock(written, rec.Backend.Block):
		return Settings{}, ds.Append(initRequired("Backend configuration block has changed"))
	}
	chosen := rec.Backend.Config.Merge(fromEnv)
	if err := chosen.Validate(); err != nil {
		return Settings{}, ds.Append(diags.Errorf("Invalid backend configuration", "With the %s environment variables: %s.", EnvPrefix+"*", err))
	}
	if chosen.Identity(dir) != rec.Backend.Config.Identity(dir) {
		return Settings{}, ds.Append(initRequired(fmt.Sprintf("%s %s, but this working directory was initialized for %s",
			namedBy(fromEnv), chosen.Describe(), rec.Backend.Config.Describe())))
	}
	return chosen, ds
}

// hasDefaultStore reports whether the embedded store's default file exists
// in dir.
func hasDefaultStore(dir string) bool {
	_, err := os.Stat((Settings{}).AbsPath(dir))
	return err == nil
}

// InitChoice is what init works from: the store the configuration, the
// environment and -backend-config now name, and the one used so far.
type InitChoice struct {
	// New is the store to use from now on, with every credential.
	New Settings
	// Record is what to write once New is in use.
	Record Record
	// Previous is the store used so far: the recorded one, or the embedded
	// default when init never recorded one.
	Previous Settings
	// Recorded is true when init had recorded a store before.
	Recorded bool
}

// Changed reports whether the store changes.
func (c InitChoice) Changed(dir string) bool {
	return c.New.Identity(dir) != c.Previous.Identity(dir)
}

// ForInit works out the store init is asked for. Arguments override one
// another in this order: the backend block, TERRANE_BACKEND_* variables,
// -backend-config options (the last one given wins).
func ForInit(dir string, block *config.Backend, overrides []string, environ []string) (InitChoice, diags.Diagnostics) {
	written, ds := DecodeBlock(block)
	fromEnv, envDiags := FromEnvironment(environ)
	ds = ds.Append(envDiags)
	fromFlags, flagDiags := DecodeOverrides(overrides)
	ds = ds.Append(flagDiags)
	if len(overrides) > 0 && (block == nil || block.Type != BackendType) {
		d := diags.Errorf("Invalid -backend-config option",
			"-backend-config completes a backend \"terrane\" block, and the configuration has none. Add one (it may be empty: terraform { backend \"terrane\" {} }) or set the %s* environment variables instead.", EnvPrefix)
		if block != nil {
			d.Subject = block.DeclRange.Ptr()
		}
		ds = ds.Append(d)
	}
	rec, err := ReadRecord(dir)
	if err != nil {
		ds = ds.Append(diags.Errorf("Cannot read the recorded backend", "%s.", diags.Capitalize(err.Error())))
	}
	if ds.HasErrors() {
		return InitChoice{}, ds
	}
	base := Settings{}
	if written != nil {
		base = *written
	}
	choice := InitChoice{New: base.Merge(fromEnv).Merge(fromFlags)}
	if err := choice.New.Validate(); err != nil {
		return InitChoice{}, ds.Append(diags.Errorf("Invalid backend configuration", "%s.", diags.Capitalize(err.Error())))
	}
	choice.Record.Backend.Block = written
	choice.Record.Backend.Config = base.Merge(fromEnv.withoutSecrets()).Merge(fromFlags)
	if rec != nil {
		choice.Previous, choice.Recorded = rec.Backend.Config.WithCredentialsFrom(fromEnv), true
	}
	return choice, ds
}

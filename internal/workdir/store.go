package workdir

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/encrypted"
	"github.com/terrane/terrane/internal/storeconfig"
)

// StoreSettings returns the store runs in dir use: the one init recorded,
// checked against the root module's backend block and the TERRANE_BACKEND_*
// environment variables (see package storeconfig). Errors are diagnostics,
// such as the one that asks for init after the backend block changed.
func StoreSettings(dir string) (storeconfig.Settings, diags.Diagnostics) {
	mod, hclDiags := config.NewParser().LoadModuleSelective(dir, config.SelectBackend)
	ds := diags.Diagnostics{}.Append(hclDiags)
	if ds.HasErrors() {
		return storeconfig.Settings{}, ds
	}
	var block *config.Backend
	if mod != nil {
		block = mod.Backend
	}
	settings, more := storeconfig.ForCommand(dir, block, os.Environ())
	return settings, ds.Append(more)
}

// Tokens returns where the tokens of serve endpoints come from for dir:
// the CLI configuration's credentials blocks and TF_TOKEN_ variables. Only
// errors are returned: the commands that load the CLI configuration for
// their providers report its warnings once.
func Tokens(dir string) (storeconfig.TokenSource, diags.Diagnostics) {
	cli, ds := cliconfig.Load(cliconfig.Environment{WorkingDir: dir})
	if ds.HasErrors() {
		return nil, ds
	}
	return storeconfig.TokenLookup(discovery.NewCredentials(cli.Credentials, os.Environ()).Token), nil
}

// OpenBackend opens the store settings name for dir, as a diagnostic on
// failure.
func OpenBackend(dir string, settings storeconfig.Settings) (store.Backend, diags.Diagnostics) {
	tokens, ds := Tokens(dir)
	if ds.HasErrors() {
		return nil, ds
	}
	backend, err := storeconfig.Open(dir, settings, tokens)
	if err != nil {
		return nil, ds.Append(storeFailure(dir, settings, err))
	}
	return backend, ds
}

// storeFailure explains a store that cannot be opened or used. A record
// that cannot be decrypted is no fault of the store.
func storeFailure(dir string, settings storeconfig.Settings, err error) diags.Diagnostic {
	if d, ok := encryption.Diagnostic(err); ok {
		return d
	}
	hint := StoreRecoveryAdvice(settings.AbsPath(dir), err)
	switch settings.Kind() {
	case storeconfig.Etcd, storeconfig.Serve:
		hint = "Check that it is running and reachable from here, and the backend's credentials (see terrane init's -backend-config and the " +
			storeconfig.EnvPrefix + "* environment variables)."
	}
	return diags.Errorf("Failed to open the state store", "Opening %s: %s.\n\n%s", settings.Describe(), err, hint)
}

// OpenService opens the store runs in dir use as a ResourceService over
// every project and workspace in it, record data passing through cipher
// (see OpenSettings). The closer releases the store.
func OpenService(dir string, cipher encrypted.Cipher) (*resourceservice.Service, func() error, error) {
	settings, ds := StoreSettings(dir)
	if ds.HasErrors() {
		return nil, nil, ds.Err()
	}
	return OpenSettings(dir, settings, cipher)
}

// OpenSettings opens the store settings name as a ResourceService, with
// relative files resolved against dir. Record data passes through cipher
// (the state encryption; nil keeps it as it is), whatever the store, so
// the file, the etcd cluster or the serve below holds only what cipher
// makes of it. The closer releases the store.
func OpenSettings(dir string, settings storeconfig.Settings, cipher encrypted.Cipher) (*resourceservice.Service, func() error, error) {
	backend, ds := OpenBackend(dir, settings)
	if ds.HasErrors() {
		return nil, nil, ds.Err()
	}
	closeStore := backend.Close
	if cipher != nil {
		backend = encrypted.New(backend, cipher)
	}
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		return nil, nil, errors.Join(err, closeStore())
	}
	return resourceservice.New(backend, registry), closeStore, nil
}

// OpenStore opens the store of the configuration in dir (the embedded one,
// .terrane/state.db, unless a backend names another), and returns the
// records of one workspace, its workspace record created if missing. Record
// data passes through cipher (see OpenSettings). The closer releases the
// store; call it when the run is over. Errors carry diagnostics
// (diags.Err).
func OpenStore(dir, project, workspace string, cipher encrypted.Cipher) (*recordstore.Store, func() error, error) {
	if !namePattern.MatchString(project) {
		return nil, nil, fmt.Errorf("%q is not a valid project name", project)
	}
	if !namePattern.MatchString(workspace) {
		return nil, nil, fmt.Errorf("%q is not a valid workspace name", workspace)
	}
	settings, ds := StoreSettings(dir)
	if ds.HasErrors() {
		return nil, nil, ds.Err()
	}
	service, closeStore, err := OpenSettings(dir, settings, cipher)
	if err != nil {
		return nil, nil, err
	}
	st := recordstore.New(service, project, workspace)
	if _, err := st.EnsureWorkspace(context.Background()); err != nil {
		d := storeFailure(dir, settings, fmt.Errorf("preparing workspace %q: %w", workspace, err))
		return nil, nil, errors.Join(diags.Diagnostics{d}.Err(), closeStore())
	}
	return st, closeStore, nil
}

package workdir

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/encrypted"
	"github.com/terrane/terrane/internal/store/sqlite"
)

// OpenStore opens the embedded store of the configuration in dir,
// creating .terrane/state.db on first use, and returns the records of one
// workspace, its workspace record created if missing. Record data passes
// through cipher (the state encryption; nil keeps it plain), so the
// database holds only what cipher makes of it. The closer releases the
// database; call it when the run is over.
func OpenStore(dir, project, workspace string, cipher encrypted.Cipher) (*recordstore.Store, func() error, error) {
	backend, err := OpenBackend(dir, project, workspace, cipher)
	if err != nil {
		return nil, nil, err
	}
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		return nil, nil, errors.Join(err, backend.Close())
	}
	store := recordstore.New(resourceservice.New(backend, registry), project, workspace)
	if _, err := store.EnsureWorkspace(context.Background()); err != nil {
		return nil, nil, errors.Join(fmt.Errorf("preparing workspace %q in %s: %w", workspace, StatePath(dir), err), backend.Close())
	}
	return store, backend.Close, nil
}

// OpenBackend opens the embedded store's backend for a workspace of
// project, creating the database on first use, with record data passing
// through cipher when it is not nil.
func OpenBackend(dir, project, workspace string, cipher encrypted.Cipher) (store.Backend, error) {
	if !namePattern.MatchString(project) {
		return nil, fmt.Errorf("%q is not a valid project name", project)
	}
	if !namePattern.MatchString(workspace) {
		return nil, fmt.Errorf("%q is not a valid workspace name", workspace)
	}
	if err := os.MkdirAll(DataDir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", DataDir(dir), err)
	}
	path := StatePath(dir)
	backend, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		return nil, fmt.Errorf("opening the state store %s: %w", path, err)
	}
	if cipher == nil {
		return backend, nil
	}
	return encrypted.New(backend, cipher), nil
}

package workdir

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store/sqlite"
)

// OpenStore opens the embedded store of the configuration in dir,
// creating .terrane/state.db on first use, and returns the records of one
// workspace, its workspace record created if missing. The closer releases
// the database; call it when the run is over.
func OpenStore(dir, project, workspace string) (*recordstore.Store, func() error, error) {
	if !namePattern.MatchString(project) {
		return nil, nil, fmt.Errorf("%q is not a valid project name", project)
	}
	if !namePattern.MatchString(workspace) {
		return nil, nil, fmt.Errorf("%q is not a valid workspace name", workspace)
	}
	if err := os.MkdirAll(DataDir(dir), 0o755); err != nil {
		return nil, nil, fmt.Errorf("creating %s: %w", DataDir(dir), err)
	}
	path := StatePath(dir)
	backend, err := sqlite.Open(path, sqlite.Options{BackupDir: BackupsDir(dir)})
	if err != nil {
		return nil, nil, fmt.Errorf("opening the state store %s: %w", path, err)
	}
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		return nil, nil, errors.Join(err, backend.Close())
	}
	store := recordstore.New(resourceservice.New(backend, registry), project, workspace)
	if _, err := store.EnsureWorkspace(context.Background()); err != nil {
		return nil, nil, errors.Join(fmt.Errorf("preparing workspace %q in %s: %w", workspace, path, err), backend.Close())
	}
	return store, backend.Close, nil
}

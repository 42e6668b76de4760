package workspaces

import (
	"errors"
	"fmt"
	"os"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/encrypted"
	"github.com/terrane/terrane/internal/store/sqlite"
	"github.com/terrane/terrane/internal/workdir"
)

// OpenEmbedded opens the embedded store of the configuration in dir as a
// service over every project and workspace in it, creating nothing: a
// store that does not exist yet is reported, not made. Record data passes
// through cipher (nil: none).
func OpenEmbedded(dir string, cipher encrypted.Cipher) (*resourceservice.Service, func() error, error) {
	path := workdir.StatePath(dir)
	if _, err := os.Stat(path); err != nil {
		return nil, nil, fmt.Errorf("no state store at %s: %w", path, err)
	}
	backend, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("opening the state store %s: %w", path, err)
	}
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		return nil, nil, errors.Join(err, backend.Close())
	}
	var wrapped store.Backend = backend
	if cipher != nil {
		wrapped = encrypted.New(backend, cipher)
	}
	return resourceservice.New(wrapped, registry), backend.Close, nil
}

package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/sqlite"
	"github.com/terrane/terrane/internal/store/storetest"
)

func openTemp(t *testing.T, opts sqlite.Options) *sqlite.Backend {
	t.Helper()
	b, err := sqlite.Open(filepath.Join(t.TempDir(), ".terrane", "state.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Backend { return openTemp(t, sqlite.Options{}) })
}

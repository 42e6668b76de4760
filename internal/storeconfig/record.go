package storeconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
)

// recordFile is where init records the store it chose, inside the
// working directory's .terrane directory.
const recordFile = "backend.json"

// recordVersion is the format version of the record file.
const recordVersion = 1

// Record is what init wrote about the store of a working directory.
type Record struct {
	Version int           `json:"version"`
	Backend RecordBackend `json:"backend"`
}

// RecordBackend is the recorded choice.
type RecordBackend struct {
	// Type is always BackendType.
	Type string `json:"type"`
	// Block is the configuration's backend "terrane" block as written,
	// nil when there was none; a command compares it with the block it
	// finds to notice a change init has not seen.
	Block *Settings `json:"block"`
	// Config is the store init chose: the block, then the environment,
	// then -backend-config, with secrets from the environment left out
	// (they are read from it again by every command).
	Config Settings `json:"config"`
}

// RecordPath returns the record file of the working directory dir, in its
// data directory (which TF_DATA_DIR moves, as OpenTofu's backend record).
func RecordPath(dir string) string {
	if dataDir := os.Getenv("TF_DATA_DIR"); dataDir != "" {
		if filepath.IsAbs(dataDir) {
			return filepath.Join(dataDir, recordFile)
		}
		return filepath.Join(dir, dataDir, recordFile)
	}
	return filepath.Join(dir, ".terrane", recordFile)
}

// ReadRecord returns the record of dir, or nil when init never wrote one.
func ReadRecord(dir string) (*Record, error) {
	src, err := os.ReadFile(RecordPath(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", RecordPath(dir), err)
	}
	var rec Record
	if err := json.Unmarshal(src, &rec); err != nil {
		return nil, fmt.Errorf("%s is not a backend record Terrane can read (%v); run terrane init -reconfigure to write it again", RecordPath(dir), err)
	}
	if rec.Version != recordVersion || rec.Backend.Type != BackendType {
		return nil, fmt.Errorf("%s has version %d and backend type %q, which this version of Terrane does not read; run terrane init -reconfigure to write it again",
			RecordPath(dir), rec.Version, rec.Backend.Type)
	}
	return &rec, nil
}

// WriteRecord writes rec for dir. The file may hold a password or token
// given to init, so only its owner may read it.
func WriteRecord(dir string, rec *Record) error {
	rec.Version, rec.Backend.Type = recordVersion, BackendType
	src, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	path := RecordPath(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(src, '\n'), 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// sameBlock reports whether two blocks, as written, are the same.
func sameBlock(a, b *Settings) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return reflect.DeepEqual(normalized(*a), normalized(*b))
}

func normalized(s Settings) Settings {
	if len(s.Endpoints) == 0 {
		s.Endpoints = nil
	}
	return s
}

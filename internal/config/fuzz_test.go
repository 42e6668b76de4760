package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadConfig loads arbitrary bytes as a configuration file, native
// syntax and JSON: whatever the input, loading ends in a configuration or
// in diagnostics, never a panic. The seeds are every file of the valid and
// invalid configurations in testdata.
func FuzzLoadConfig(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*", "*", "*.tf*"))
	for _, path := range seeds {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, filepath.Ext(path) == ".json")
	}
	f.Fuzz(func(t *testing.T, src []byte, asJSON bool) {
		dir := t.TempDir()
		name := "main.tf"
		if asJSON {
			name = "main.tf.json"
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, ds := LoadConfigDir(dir)
		if cfg == nil && !ds.HasErrors() {
			t.Fatal("loading gave neither a configuration nor an error")
		}
	})
}

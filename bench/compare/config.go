package compare

import (
	"os"
	"path/filepath"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// writeConfig writes the configuration for n null- and random-like
// instances (providertest.NullRandomConfig) into dir, with its provider
// objects kept under cloud.
func writeConfig(dir, cloud string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	text := providertest.NullRandomConfig(cloud, n)
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(text), 0o644)
}

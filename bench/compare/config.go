package compare

import (
	"fmt"
	"os"
	"path/filepath"
)

// configTemplate is n/2 null-like and n - n/2 random-like instances, each
// configured the way those resources usually are: a name, and nothing
// read from another resource.
const configTemplate = `terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
    tpf   = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpsdk" {
  root_dir = %[1]q
}

provider "tpf" {
  root_dir = %[1]q
}

resource "tpsdk_widget" "null_like" {
  count = %[2]d
  name  = "null-${count.index}"
}

resource "tpf_thing" "random_like" {
  count = %[3]d
  name  = "random-${count.index}"
}
`

// writeConfig writes the configuration for n instances into dir, with its
// provider objects kept under cloud.
func writeConfig(dir, cloud string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	text := fmt.Sprintf(configTemplate, cloud, n/2, n-n/2)
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(text), 0o644)
}

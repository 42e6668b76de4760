package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// configFileExtensions are the file name endings of configuration files,
// longest first so ".tf.json" is not mistaken for ".json".
var configFileExtensions = []string{".tofu.json", ".tf.json", ".tofu", ".tf"}

// fileExtension returns the configuration extension of name, or "".
func fileExtension(name string) string {
	for _, ext := range configFileExtensions {
		if strings.HasSuffix(name, ext) {
			return ext
		}
	}
	return ""
}

// isOverrideFile reports whether name is an override file: override.tf,
// foo_override.tf and their .tf.json, .tofu and .tofu.json variants.
func isOverrideFile(name string) bool {
	base := strings.TrimSuffix(name, fileExtension(name))
	return base == "override" || strings.HasSuffix(base, "_override")
}

// isIgnoredFile reports whether a file is an editor backup or temporary file.
func isIgnoredFile(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"))
}

// moduleFiles lists the configuration files of the module in dir, split into
// primary and override files, each sorted by name. When foo.tofu and foo.tf
// (or foo.tofu.json and foo.tf.json) both exist, only the .tofu file is
// read, so a module can carry OpenTofu-specific variants of its files.
func moduleFiles(dir string) (primary, override []string, diags hcl.Diagnostics) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read module directory",
			Detail:   fmt.Sprintf("Module directory %s does not exist or cannot be read: %s.", dir, err),
		}}
	}
	present := make(map[string]bool, len(entries))
	for _, entry := range entries {
		present[entry.Name()] = true
	}
	for _, entry := range entries {
		name := entry.Name()
		ext := fileExtension(name)
		if ext == "" || entry.IsDir() || isIgnoredFile(name) {
			continue
		}
		if shadowedByTofuFile(name, ext, present) {
			continue
		}
		path := filepath.Join(dir, name)
		if isOverrideFile(name) {
			override = append(override, path)
		} else {
			primary = append(primary, path)
		}
	}
	sort.Strings(primary)
	sort.Strings(override)
	return primary, override, nil
}

func shadowedByTofuFile(name, ext string, present map[string]bool) bool {
	base := strings.TrimSuffix(name, ext)
	switch ext {
	case ".tf":
		return present[base+".tofu"]
	case ".tf.json":
		return present[base+".tofu.json"]
	}
	return false
}

// IsConfigDir reports whether dir holds any configuration file, as
// OpenTofu's loader decides whether a directory has a configuration: plan
// and apply refuse to run without one.
func IsConfigDir(dir string) bool {
	primary, override, _ := moduleFiles(dir)
	return len(primary)+len(override) > 0
}

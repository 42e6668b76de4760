package planfile

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// ConfigSnapshot is the configuration a plan was made from: every
// configuration file of every module, so that apply evaluates exactly what
// plan evaluated even if the files on disk changed since.
type ConfigSnapshot struct {
	// Modules is keyed by module key: "" for the root module, "net" for
	// module.net, "net.vpc" for module.vpc inside it.
	Modules map[string]*SnapshotModule
}

// SnapshotModule is one module of a ConfigSnapshot.
type SnapshotModule struct {
	// Dir is the directory the module was loaded from, relative to the
	// working directory; SourceAddr and Version are what the module call
	// asked for (empty for the root module and local modules).
	Dir, SourceAddr, Version string
	// Files maps each file name, without directory, to its content.
	Files map[string][]byte
}

// configFileSuffixes are the files a module's configuration is loaded from;
// tests and override files end with these too.
var configFileSuffixes = []string{".tf", ".tf.json", ".tofu", ".tofu.json", ".tftest.hcl", ".tftest.json", ".tofutest.hcl", ".tofutest.json"}

// AddModuleDir reads the configuration files of the module in dir into the
// snapshot under key.
func (s *ConfigSnapshot) AddModuleDir(key, sourceAddr, version, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("snapshotting module %q: %w", displayModuleKey(key), err)
	}
	module := &SnapshotModule{Dir: dir, SourceAddr: sourceAddr, Version: version, Files: map[string][]byte{}}
	for _, entry := range entries {
		if entry.IsDir() || !isConfigFile(entry.Name()) {
			continue
		}
		content, err := os.ReadFile(filepath.Join(dir, entry.Name()))
		if err != nil {
			return fmt.Errorf("snapshotting module %q: %w", displayModuleKey(key), err)
		}
		module.Files[entry.Name()] = content
	}
	if s.Modules == nil {
		s.Modules = map[string]*SnapshotModule{}
	}
	s.Modules[key] = module
	return nil
}

func isConfigFile(name string) bool {
	if strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") {
		return false
	}
	for _, suffix := range configFileSuffixes {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

func displayModuleKey(key string) string {
	if key == "" {
		return "root"
	}
	return key
}

// Entry names inside the zip, as Terraform and OpenTofu lay them out: the
// manifest, and each module's files under "m-<module key>/".
const (
	configDir          = "tfconfig/"
	configManifestName = configDir + "modules.json"
	moduleDirPrefix    = configDir + "m-"
)

// manifestEntry is one element of tfconfig/modules.json; the field names are
// the other tools' spelling.
type manifestEntry struct {
	Key        string `json:"Key"`
	SourceAddr string `json:"SourceAddr,omitempty"`
	Version    string `json:"VersionStr,omitempty"`
	Dir        string `json:"Dir"`
}

func (s *ConfigSnapshot) manifest() ([]byte, error) {
	entries := make([]manifestEntry, 0, len(s.Modules))
	for key, module := range s.Modules {
		entries = append(entries, manifestEntry{Key: key, SourceAddr: module.SourceAddr, Version: module.Version, Dir: filepath.ToSlash(module.Dir)})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Key < entries[j].Key })
	return json.MarshalIndent(entries, "", "  ")
}

// moduleFileEntry names the zip entry of one module file.
func moduleFileEntry(key, fileName string) string {
	return moduleDirPrefix + key + "/" + fileName
}

// splitModuleFileEntry is the inverse of moduleFileEntry. Files in
// subdirectories of a module are not configuration, so only direct children
// are accepted.
func splitModuleFileEntry(name string) (key, fileName string, ok bool) {
	rest, found := strings.CutPrefix(name, moduleDirPrefix)
	if !found {
		return "", "", false
	}
	key, fileName, found = strings.Cut(rest, "/")
	if !found || fileName == "" || strings.Contains(fileName, "/") || fileName != path.Clean(fileName) {
		return "", "", false
	}
	return key, fileName, true
}

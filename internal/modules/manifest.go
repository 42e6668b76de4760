package modules

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
)

// Dir returns where installed modules live, relative to the root module:
// the modules directory of the data directory, which TF_DATA_DIR moves as
// it moves OpenTofu's.
func Dir() string {
	if dataDir := os.Getenv("TF_DATA_DIR"); dataDir != "" {
		return filepath.Join(dataDir, "modules")
	}
	return filepath.Join(".terrane", "modules")
}

// ManifestFile is the manifest's name inside Dir.
const ManifestFile = "modules.json"

// Record is one module call's installation: the manifest entry Terraform
// and OpenTofu also write, so a manifest is readable by either.
type Record struct {
	// Key is the module path joined with dots ("app.db"); "" for the root.
	Key string `json:"Key"`
	// Source is the source address as written in the module block.
	Source string `json:"Source"`
	// Version is the selected version of a registry module, or "".
	Version string `json:"Version,omitempty"`
	// Dir is the module's directory, relative to the root module.
	Dir string `json:"Dir"`
}

// Manifest lists the installed module calls by key.
type Manifest struct {
	Records map[string]Record
}

type manifestFile struct {
	Modules []Record `json:"Modules"`
}

// ManifestPath returns the manifest's path for the root module in rootDir.
func ManifestPath(rootDir string) string {
	return filepath.Join(rootDir, Dir(), ManifestFile)
}

// LoadManifest reads the manifest of rootDir; a missing manifest is an
// empty one.
func LoadManifest(rootDir string) (*Manifest, error) {
	path := ManifestPath(rootDir)
	manifest := &Manifest{Records: map[string]Record{}}
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return manifest, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the module manifest %s: %w", path, err)
	}
	var file manifestFile
	if err := json.Unmarshal(src, &file); err != nil {
		return nil, fmt.Errorf("the module manifest %s is damaged (%s); run \"terrane init\" to reinstall modules", path, err)
	}
	for _, record := range file.Modules {
		manifest.Records[record.Key] = record
	}
	return manifest, nil
}

// Save writes the manifest for rootDir, records in key order.
func (m *Manifest) Save(rootDir string) error {
	file := manifestFile{Modules: make([]Record, 0, len(m.Records))}
	for _, record := range m.Records {
		file.Modules = append(file.Modules, record)
	}
	sort.Slice(file.Modules, func(i, j int) bool { return file.Modules[i].Key < file.Modules[j].Key })
	src, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		return err
	}
	path := ManifestPath(rootDir)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", filepath.Dir(path), err)
	}
	temp := path + ".tmp"
	if err := os.WriteFile(temp, append(src, '\n'), 0o644); err != nil {
		return fmt.Errorf("cannot write the module manifest: %w", err)
	}
	return os.Rename(temp, path)
}

// ModuleDir returns the installed directory of the module call at path
// (the call names from the root), relative to rootDir, or false when the
// manifest has no such call.
func (m *Manifest) ModuleDir(path []string) (string, bool) {
	record, ok := m.Records[strings.Join(path, ".")]
	return record.Dir, ok
}

// Installed adapts the manifest for config.Parser.LoadConfigWithModules,
// with directories resolved against rootDir. When rootDir is the working
// directory given by its absolute path, the directories stay as recorded,
// relative: OpenTofu reads them relative to its working directory whatever
// path it read the root module by, and its diagnostics name their files so.
func (m *Manifest) Installed(rootDir string) config.InstalledModules {
	return m.InstalledUnder(rootDir, nil)
}

// InstalledUnder is Installed for a configuration whose root is itself the
// installed module call at prefix, such as a test file's run block
// module ("test.main.setup"), with directories resolved against rootDir,
// the working directory's root module.
func (m *Manifest) InstalledUnder(rootDir string, prefix []string) config.InstalledModules {
	if filepath.IsAbs(rootDir) {
		if wd, err := os.Getwd(); err == nil && wd == filepath.Clean(rootDir) {
			rootDir = "."
		}
	}
	return func(path addrs.Module) (config.InstalledModule, bool) {
		full := append(append([]string(nil), prefix...), path...)
		record, ok := m.Records[strings.Join(full, ".")]
		if !ok {
			return config.InstalledModule{}, false
		}
		dir := record.Dir
		if dir != "" {
			// A failed installation records no directory, which stays so.
			dir = filepath.Join(rootDir, filepath.FromSlash(dir))
		}
		return config.InstalledModule{Dir: dir, Source: record.Source, Version: record.Version}, true
	}
}

// LoadConfig loads the configuration in rootDir with the modules init
// installed there.
func LoadConfig(parser *config.Parser, rootDir string) (*config.Config, hcl.Diagnostics) {
	manifest, err := LoadManifest(rootDir)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the module manifest", Detail: err.Error() + "."}}
	}
	return parser.LoadConfigWithModules(rootDir, manifest.Installed(rootDir))
}

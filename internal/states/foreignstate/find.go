package foreignstate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/statefile"
)

// DefaultWorkspace is the workspace a single state belongs to.
const DefaultWorkspace = "default"

// Local backend defaults, as OpenTofu's local backend has them.
const (
	DefaultStateFilename = "terraform.tfstate"
	DefaultWorkspaceDir  = "terraform.tfstate.d"
)

// Source is the state of one workspace kept outside Terrane.
type Source struct {
	// Workspace is the workspace the state belongs to.
	Workspace string
	// Where names it for messages: a file path or a URL.
	Where string
	// File is the state, read.
	File *statefile.File
}

// Empty reports whether the state holds neither resources nor outputs:
// such a state has nothing to take in.
func (s *Source) Empty() bool {
	return len(s.File.State.AllResourceInstances()) == 0 && len(s.File.State.Outputs) == 0
}

// Location is where a configuration's foreign state is kept.
type Location struct {
	// Kind is "local" or "http".
	Kind string
	// Path and WorkspaceDir are the local backend's files.
	Path, WorkspaceDir string
	// HTTP is the http backend's settings.
	HTTP *HTTPSettings
	// Decrypt, when set, turns what is stored into the state file: OpenTofu
	// encrypts its state where the configuration's encryption block says
	// so, and Terrane reads that block too.
	Decrypt func(stored []byte) ([]byte, error)
}

// read decodes a stored state file, decrypting it first when loc says so.
func (loc Location) read(stored []byte) (*statefile.File, error) {
	if loc.Decrypt != nil {
		plain, err := loc.Decrypt(stored)
		if err != nil {
			return nil, err
		}
		stored = plain
	}
	return statefile.Read(bytes.NewReader(stored))
}

// Locate reads where the configuration's backend block keeps state: a
// "local" or "http" block, or, for no block or any other type, the local
// backend's default files (a stray terraform.tfstate must not be ignored).
// Paths are relative to dir.
func Locate(dir string, block *config.Backend, environ []string) (Location, diags.Diagnostics) {
	loc := Location{Kind: "local", Path: DefaultStateFilename, WorkspaceDir: DefaultWorkspaceDir}
	if block == nil {
		return loc, nil
	}
	switch block.Type {
	case "local":
		return decodeLocal(loc, block)
	case "http":
		settings, ds := decodeHTTP(block, environ)
		return Location{Kind: "http", HTTP: settings}, ds
	}
	return loc, nil
}

func decodeLocal(loc Location, block *config.Backend) (Location, diags.Diagnostics) {
	schema := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "path"}, {Name: "workspace_dir"}}}
	content, hclDiags := block.Config.Content(schema)
	ds := diags.Diagnostics{}.Append(hclDiags)
	for name, target := range map[string]*string{"path": &loc.Path, "workspace_dir": &loc.WorkspaceDir} {
		if attr, ok := content.Attributes[name]; ok {
			ds = ds.Append(decodeString(attr, target))
		}
	}
	return loc, ds
}

// StatePath is where the local backend keeps workspace's state:
// path for the default workspace, workspace_dir/NAME/terraform.tfstate for
// the others, as OpenTofu's local backend lays them out.
func (loc Location) StatePath(dir, workspace string) string {
	if workspace == DefaultWorkspace {
		return joinDir(dir, loc.Path)
	}
	return filepath.Join(joinDir(dir, loc.WorkspaceDir), workspace, DefaultStateFilename)
}

func joinDir(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// Find returns the non-empty state of every workspace the location holds,
// the default workspace first.
func Find(ctx context.Context, dir string, loc Location) ([]*Source, error) {
	if loc.Kind == "http" {
		source, err := loc.HTTP.fetch(ctx, loc)
		if source == nil || err != nil {
			return nil, err
		}
		return []*Source{source}, nil
	}
	workspaces := []string{DefaultWorkspace}
	entries, err := os.ReadDir(joinDir(dir, loc.WorkspaceDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("listing the workspaces in %s: %w", loc.WorkspaceDir, err)
	}
	for _, entry := range entries {
		if entry.IsDir() && entry.Name() != DefaultWorkspace {
			workspaces = append(workspaces, entry.Name())
		}
	}
	slices.Sort(workspaces[1:])
	var sources []*Source
	for _, workspace := range workspaces {
		source, err := loc.readFile(loc.StatePath(dir, workspace), workspace)
		if err != nil {
			return nil, err
		}
		if source != nil && !source.Empty() {
			sources = append(sources, source)
		}
	}
	return sources, nil
}

// ForWorkspace returns the state the location holds for one workspace, or
// nil when it holds none (or an empty one).
func ForWorkspace(ctx context.Context, dir string, loc Location, workspace string) (*Source, error) {
	var source *Source
	var err error
	switch {
	case loc.Kind == "http" && workspace != DefaultWorkspace:
		return nil, nil // the http backend has only the default workspace
	case loc.Kind == "http":
		source, err = loc.HTTP.fetch(ctx, loc)
	default:
		source, err = loc.readFile(loc.StatePath(dir, workspace), workspace)
	}
	if source == nil || err != nil || source.Empty() {
		return nil, err
	}
	return source, nil
}

func (loc Location) readFile(path, workspace string) (*Source, error) {
	stored, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(stored) == 0 {
		return nil, nil // OpenTofu empties the file it migrated away from
	}
	file, err := loc.read(stored)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Source{Workspace: workspace, Where: path, File: file}, nil
}

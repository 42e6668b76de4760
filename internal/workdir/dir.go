package workdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/terrane/terrane/internal/depsfile"
)

// DirName is the name of Terrane's directory inside a configuration
// directory.
const DirName = ".terrane"

// DefaultWorkspace and DefaultProject are used when nothing selects
// another.
const (
	DefaultWorkspace = "default"
	DefaultProject   = "default"
)

// Environment variables that select the workspace and the project.
const (
	// WorkspaceEnvVar overrides the selected workspace, as in Terraform.
	WorkspaceEnvVar = "TF_WORKSPACE"
	// ProjectEnvVar names the project: the store tenancy partition that
	// groups a configuration's workspaces.
	ProjectEnvVar = "TERRANE_PROJECT"
)

// environmentFile records the workspace selected with `workspace select`,
// as Terraform's .terraform/environment does.
const environmentFile = "environment"

// DataDir returns the data directory of the configuration in dir: .terrane,
// or the directory TF_DATA_DIR names (relative to dir unless absolute), as
// OpenTofu's .terraform moves with it.
func DataDir(dir string) string {
	if dataDir := os.Getenv("TF_DATA_DIR"); dataDir != "" {
		if filepath.IsAbs(dataDir) {
			return dataDir
		}
		return filepath.Join(dir, dataDir)
	}
	return filepath.Join(dir, DirName)
}

// ProvidersDir returns where init installs provider packages for dir.
func ProvidersDir(dir string) string { return filepath.Join(DataDir(dir), "providers") }

// StatePath returns the embedded store's database file for dir.
// It stays in .terrane when TF_DATA_DIR moves the data directory, as
// OpenTofu's local state stays in the working directory.
func StatePath(dir string) string { return filepath.Join(dir, DirName, "state.db") }

// LockFilePath returns the dependency lock file of the configuration in
// dir.
func LockFilePath(dir string) string { return filepath.Join(dir, depsfile.FileName) }

// namePattern is what project and workspace names may look like: they
// become store tenancy names, so they stay within what those accept.
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$`)

// ErrInvalidWorkspaceEnv is CurrentWorkspace's error when TF_WORKSPACE
// names no valid workspace, in OpenTofu's words.
var ErrInvalidWorkspaceEnv = errors.New("Invalid workspace name set using " + WorkspaceEnvVar)

// CurrentWorkspace returns the workspace runs in dir use: TF_WORKSPACE when
// set, else the one recorded by workspace selection, else "default".
func CurrentWorkspace(dir string) (string, error) {
	if name := os.Getenv(WorkspaceEnvVar); name != "" {
		if !namePattern.MatchString(name) {
			return "", ErrInvalidWorkspaceEnv
		}
		return name, nil
	}
	src, err := os.ReadFile(filepath.Join(DataDir(dir), environmentFile))
	if errors.Is(err, fs.ErrNotExist) {
		return DefaultWorkspace, nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the selected workspace: %w", err)
	}
	name := strings.TrimSpace(string(src))
	if !namePattern.MatchString(name) {
		return "", fmt.Errorf("%s names %q, which is not a valid workspace name; select a workspace again or delete the file",
			filepath.Join(DataDir(dir), environmentFile), name)
	}
	return name, nil
}

// SelectWorkspace records name as the workspace later runs in dir use
// when TF_WORKSPACE is not set.
func SelectWorkspace(dir, name string) error {
	if !namePattern.MatchString(name) {
		return fmt.Errorf("%q is not a valid workspace name: use letters, digits, '-', '_' and '.', starting with a letter or digit", name)
	}
	if err := os.MkdirAll(DataDir(dir), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(DataDir(dir), environmentFile), []byte(name+"\n"), 0o644)
}

// Project returns the project name: TERRANE_PROJECT when set, else
// "default".
func Project() (string, error) {
	name := os.Getenv(ProjectEnvVar)
	if name == "" {
		return DefaultProject, nil
	}
	if !namePattern.MatchString(name) {
		return "", fmt.Errorf("the project %q named by %s is not a valid project name: use letters, digits, '-', '_' and '.', starting with a letter or digit", name, ProjectEnvVar)
	}
	return name, nil
}

// ValidName reports whether name can name a workspace or a project: the
// store's tenancies take letters, digits, '-', '_' and '.', starting with
// a letter or digit.
func ValidName(name string) bool {
	return namePattern.MatchString(name)
}

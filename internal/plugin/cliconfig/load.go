package cliconfig

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/terrane/terrane/internal/diags"
)

// Environment is what Load reads from outside the file: environment
// variables and directories. The zero value means the real process
// environment.
type Environment struct {
	// Getenv looks up an environment variable; nil means os.Getenv.
	Getenv func(string) string
	// HomeDir is the user's home directory; "" means os.UserHomeDir.
	HomeDir string
	// WorkingDir, when set, adds its terraform.d/plugins directory to the
	// implied filesystem mirrors, as Terraform does for the current
	// directory.
	WorkingDir string
}

func (env Environment) getenv(name string) string {
	if env.Getenv == nil {
		return os.Getenv(name)
	}
	return env.Getenv(name)
}

func (env Environment) homeDir() string {
	if env.HomeDir != "" {
		return env.HomeDir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return home
}

// ConfigFileVariables are the environment variables naming the CLI
// configuration file, most specific first.
var ConfigFileVariables = []string{"TERRANE_CLI_CONFIG_FILE", "TF_CLI_CONFIG_FILE"}

// Load finds, reads and completes the CLI configuration: the file named by
// TERRANE_CLI_CONFIG_FILE or TF_CLI_CONFIG_FILE, else ~/.terraformrc; then
// TF_PLUGIN_CACHE_DIR and TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE;
// then the implied installation methods when the file has none. A named
// file that does not exist is a warning, as in Terraform; the result is
// usable whenever the diagnostics have no errors.
func Load(env Environment) (*Config, diags.Diagnostics) {
	var result diags.Diagnostics
	config := &Config{}
	if filename, explicit := configFilename(env); filename != "" {
		src, err := os.ReadFile(filename)
		switch {
		case err == nil:
			parsed, parseDiags := Parse(src, filename)
			result = result.Append(parseDiags)
			if parsed != nil {
				config = parsed
			}
		case errors.Is(err, fs.ErrNotExist) && !explicit:
			// No ~/.terraformrc is the usual case, not a problem.
		case errors.Is(err, fs.ErrNotExist):
			result = result.Append(diags.Warnf("Unable to open CLI configuration file",
				"The CLI configuration file at %q does not exist.", filename))
		default:
			result = result.Append(diags.Errorf("Unable to read CLI configuration file",
				"Reading %s failed: %s. Check its permissions.", filename, err))
		}
	}
	result = result.Append(loadCredentialsFile(config, env))
	applyEnvironment(config, env)
	if config.ProviderInstallation == nil {
		config.ProviderInstallation = ImpliedProviderInstallation(env)
	}
	if env.Getenv == nil && reportedAtStartup.Load() {
		// The process reported these when it started; the configuration
		// is used as it is, as OpenTofu goes on with its defaults.
		return config, nil
	}
	return config, result
}

// reportedAtStartup is set once LoadAtStartup has returned the real
// environment's diagnostics for the process to report.
var reportedAtStartup atomic.Bool

// LoadAtStartup loads the CLI configuration of the real environment and
// returns its problems, for the process to report once as it starts, as
// OpenTofu does before running any command. Later Load calls of the real
// environment return the configuration without them.
func LoadAtStartup() diags.Diagnostics {
	reportedAtStartup.Store(false)
	_, ds := Load(Environment{})
	reportedAtStartup.Store(true)
	return ds
}

// configFilename returns the CLI configuration file to read and whether an
// environment variable named it.
func configFilename(env Environment) (string, bool) {
	for _, variable := range ConfigFileVariables {
		if filename := env.getenv(variable); filename != "" {
			return filename, true
		}
	}
	if home := env.homeDir(); home != "" {
		return filepath.Join(home, ".terraformrc"), false
	}
	return "", false
}

func applyEnvironment(config *Config, env Environment) {
	if dir := env.getenv("TF_PLUGIN_CACHE_DIR"); dir != "" {
		config.PluginCacheDir = dir
	}
	if env.getenv("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE") != "" {
		config.PluginCacheMayBreakDependencyLockFile = true
	}
}

// ImpliedProviderInstallation returns the installation methods used when
// the CLI configuration has no provider_installation block: a filesystem
// mirror for each of Terraform's local plugin directories that exists, then
// direct installation.
func ImpliedProviderInstallation(env Environment) *ProviderInstallation {
	installation := &ProviderInstallation{Implied: true}
	for _, dir := range impliedMirrorDirs(env) {
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			installation.Methods = append(installation.Methods, InstallationMethod{Kind: FilesystemMirror, Path: dir})
		}
	}
	installation.Methods = append(installation.Methods, InstallationMethod{Kind: Direct})
	return installation
}

// impliedMirrorDirs lists Terraform's local plugin directories in search
// order, whether or not they exist.
func impliedMirrorDirs(env Environment) []string {
	var dirs []string
	if env.WorkingDir != "" {
		dirs = append(dirs, filepath.Join(env.WorkingDir, "terraform.d", "plugins"))
	}
	home := env.homeDir()
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".terraform.d", "plugins"))
	}
	dataHome := env.getenv("XDG_DATA_HOME")
	if dataHome == "" && home != "" {
		dataHome = filepath.Join(home, ".local", "share")
	}
	if dataHome != "" {
		dirs = append(dirs, filepath.Join(dataHome, "terraform", "plugins"))
	}
	dataDirs := env.getenv("XDG_DATA_DIRS")
	if dataDirs == "" {
		dataDirs = "/usr/local/share/:/usr/share/"
	}
	for _, dir := range strings.Split(dataDirs, string(os.PathListSeparator)) {
		if dir != "" {
			dirs = append(dirs, filepath.Join(dir, "terraform", "plugins"))
		}
	}
	return dirs
}

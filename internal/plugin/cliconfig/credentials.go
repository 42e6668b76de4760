package cliconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/terrane/terrane/internal/diags"
)

// CredentialsFileName is the file `login` writes tokens to, in ConfigDir,
// as OpenTofu and Terraform name it.
const CredentialsFileName = "credentials.tfrc.json"

// ConfigDir is the directory of the user's CLI files, where OpenTofu looks
// for them: ~/.terraform.d, unless it does not exist and XDG_CONFIG_HOME is
// set, in which case $XDG_CONFIG_HOME/opentofu. "" when there is no home
// directory.
func ConfigDir(env Environment) string {
	home := env.homeDir()
	if home == "" {
		return ""
	}
	legacy := filepath.Join(home, ".terraform.d")
	if xdg := env.getenv("XDG_CONFIG_HOME"); xdg != "" {
		if _, err := os.Stat(legacy); errors.Is(err, fs.ErrNotExist) {
			return filepath.Join(xdg, "opentofu")
		}
	}
	return legacy
}

// CredentialsFile is the path of the credentials file, or "" when there is
// no home directory.
func CredentialsFile(env Environment) string {
	dir := ConfigDir(env)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, CredentialsFileName)
}

// loadCredentialsFile adds the tokens of the credentials file to config:
// a host the CLI configuration file gives credentials for keeps those.
func loadCredentialsFile(config *Config, env Environment) diags.Diagnostics {
	filename := CredentialsFile(env)
	if filename == "" {
		return nil
	}
	src, err := os.ReadFile(filename)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Unable to read the credentials file", "Reading %s failed: %s. Check its permissions.", filename, err)}
	}
	parsed, ds := Parse(src, filename)
	if parsed == nil {
		return ds
	}
	for host, creds := range parsed.Credentials {
		if _, configured := config.Credentials[host]; configured {
			continue
		}
		if config.Credentials == nil {
			config.Credentials = map[svchost.Hostname]Credentials{}
		}
		creds.InCredentialsFile = true
		config.Credentials[host] = creds
	}
	return ds
}

// StoreCredentials records token for host in the credentials file, as
// OpenTofu's login does: the file's other content is kept, an entry that
// names the same host differently is replaced, and the file is replaced
// whole, readable only by its owner.
func StoreCredentials(filename string, host svchost.Hostname, token string) error {
	return updateCredentials(filename, host, map[string]any{"token": token})
}

// ForgetCredentials removes host's entry from the credentials file.
func ForgetCredentials(filename string, host svchost.Hostname) error {
	return updateCredentials(filename, host, nil)
}

func updateCredentials(filename string, host svchost.Hostname, entry map[string]any) error {
	raw := map[string]any{}
	src, err := os.ReadFile(filename)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("cannot read %s: %w", filename, err)
	case len(src) > 0:
		dec := json.NewDecoder(bytes.NewReader(src))
		dec.UseNumber() // numbers elsewhere in the file are written back as they were
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("cannot read %s: %w", filename, err)
		}
	}
	if raw["credentials"] == nil {
		raw["credentials"] = map[string]any{}
	}
	hosts, ok := raw["credentials"].(map[string]any)
	if !ok {
		return fmt.Errorf("credentials file %s has an invalid \"credentials\" property: it must be a JSON object", filename)
	}
	for given := range hosts {
		if canonical, err := svchost.ForComparison(given); err == nil && canonical == host {
			delete(hosts, given)
		}
	}
	if entry != nil {
		hosts[host.ForDisplay()] = entry
	}
	out, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		return fmt.Errorf("cannot encode the credentials file: %w", err)
	}
	return replaceFile(filename, out, 0o600)
}

// replaceFile writes content to a temporary file beside filename and
// renames it over filename, so a reader sees the old file or the new one.
func replaceFile(filename string, content []byte, mode os.FileMode) error {
	dir := filepath.Dir(filename)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(filename))
	if err != nil {
		return fmt.Errorf("cannot create a temporary file in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot set the mode of %s: %w", tmp.Name(), err)
	}
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), filename); err != nil {
		return fmt.Errorf("cannot replace %s: %w", filename, err)
	}
	return nil
}

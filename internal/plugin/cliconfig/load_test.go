package cliconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/diags"
)

// fakeEnv returns an Environment with the given variables and home.
func fakeEnv(home string, vars map[string]string) Environment {
	return Environment{HomeDir: home, Getenv: func(name string) string { return vars[name] }}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadChoosesFile(t *testing.T) {
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".terraformrc"), `plugin_cache_dir = "/from/home"`)
	tfFile := filepath.Join(t.TempDir(), "tf.tfrc")
	writeFile(t, tfFile, `plugin_cache_dir = "/from/tf"`)
	terraneFile := filepath.Join(t.TempDir(), "terrane.tfrc.json")
	writeFile(t, terraneFile, `{"plugin_cache_dir": "/from/terrane"}`)

	tests := []struct {
		name      string
		vars      map[string]string
		wantCache string
		wantFile  string
	}{
		{"home file", nil, "/from/home", filepath.Join(home, ".terraformrc")},
		{"TF_CLI_CONFIG_FILE", map[string]string{"TF_CLI_CONFIG_FILE": tfFile}, "/from/tf", tfFile},
		{"TERRANE_CLI_CONFIG_FILE wins", map[string]string{"TF_CLI_CONFIG_FILE": tfFile, "TERRANE_CLI_CONFIG_FILE": terraneFile}, "/from/terrane", terraneFile},
		{"TF_PLUGIN_CACHE_DIR overrides the file", map[string]string{"TF_CLI_CONFIG_FILE": tfFile, "TF_PLUGIN_CACHE_DIR": "/from/env"}, "/from/env", tfFile},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			config, diagnostics := Load(fakeEnv(home, test.vars))
			if len(diagnostics) > 0 {
				t.Fatalf("unexpected diagnostics: %v", diagnostics)
			}
			if config.PluginCacheDir != test.wantCache || config.Filename != test.wantFile {
				t.Errorf("cache dir %q from %q, want %q from %q", config.PluginCacheDir, config.Filename, test.wantCache, test.wantFile)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	home := t.TempDir()
	t.Run("default file absent is fine", func(t *testing.T) {
		config, diagnostics := Load(fakeEnv(home, nil))
		if len(diagnostics) > 0 || config == nil {
			t.Fatalf("diagnostics %v", diagnostics)
		}
	})
	t.Run("named file absent is a warning", func(t *testing.T) {
		missing := filepath.Join(home, "nope.tfrc")
		config, diagnostics := Load(fakeEnv(home, map[string]string{"TF_CLI_CONFIG_FILE": missing}))
		if len(diagnostics) != 1 || diagnostics[0].Severity != diags.Warning || diagnostics.HasErrors() {
			t.Fatalf("diagnostics = %v, want one warning", diagnostics)
		}
		if config.ProviderInstallation == nil || !config.ProviderInstallation.Implied {
			t.Errorf("a missing file must still give the implied installation methods")
		}
	})
	t.Run("unreadable file is an error", func(t *testing.T) {
		dir := t.TempDir() // a directory cannot be read as a file
		_, diagnostics := Load(fakeEnv(home, map[string]string{"TF_CLI_CONFIG_FILE": dir}))
		if !diagnostics.HasErrors() {
			t.Fatalf("diagnostics = %v, want an error", diagnostics)
		}
	})
}

func TestLoadExpandsCacheDirVariables(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rc")
	writeFile(t, file, `plugin_cache_dir = "$TERRANE_TEST_CACHE_ROOT/plugin-cache"`)
	t.Setenv("TERRANE_TEST_CACHE_ROOT", "/cache/root")
	config, diagnostics := Load(fakeEnv(t.TempDir(), map[string]string{"TF_CLI_CONFIG_FILE": file}))
	if len(diagnostics) > 0 {
		t.Fatal(diagnostics)
	}
	if config.PluginCacheDir != "/cache/root/plugin-cache" {
		t.Errorf("cache dir = %q", config.PluginCacheDir)
	}
}

func TestImpliedInstallationUsesExistingDirs(t *testing.T) {
	home := t.TempDir()
	dataDir := t.TempDir()
	existing := []string{
		filepath.Join(home, ".terraform.d", "plugins"),
		filepath.Join(dataDir, "terraform", "plugins"),
	}
	for _, dir := range existing {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := fakeEnv(home, map[string]string{"XDG_DATA_DIRS": dataDir + string(os.PathListSeparator) + "/does/not/exist"})
	config, diagnostics := Load(env)
	if len(diagnostics) > 0 {
		t.Fatal(diagnostics)
	}
	methods := config.ProviderInstallation.Methods
	if !config.ProviderInstallation.Implied || len(methods) != 3 {
		t.Fatalf("methods = %+v, want two mirrors and direct", methods)
	}
	for i, dir := range existing {
		if methods[i].Kind != FilesystemMirror || methods[i].Path != dir {
			t.Errorf("method %d = %+v, want filesystem mirror %s", i, methods[i], dir)
		}
	}
	if methods[2].Kind != Direct {
		t.Errorf("last method = %s, want direct", methods[2].Kind)
	}
}

func TestParseJSONEmptyDirect(t *testing.T) {
	config, diagnostics := Parse([]byte(`{"provider_installation": {"direct": {}}}`), "rc.json")
	if len(diagnostics) > 0 {
		t.Fatal(diagnostics)
	}
	if methods := config.ProviderInstallation.Methods; len(methods) != 1 || methods[0].Kind != Direct || !methods[0].Matches(mustProvider(t, "hashicorp/aws")) {
		t.Errorf("methods = %+v, want one direct method for every provider", methods)
	}
}

func TestParseJSONRepeatedMethodsKeepOrder(t *testing.T) {
	src := `{"provider_installation": [{
	  "filesystem_mirror": [{"path": "/first"}, {"path": "/second", "include": ["hashicorp/*"]}],
	  "direct": {"exclude": ["hashicorp/*"]}
	}]}`
	config, diagnostics := Parse([]byte(src), "rc.json")
	if len(diagnostics) > 0 {
		t.Fatal(diagnostics)
	}
	methods := config.ProviderInstallation.Methods
	if len(methods) != 3 || methods[0].Path != "/first" || methods[1].Path != "/second" || methods[2].Kind != Direct {
		t.Errorf("methods = %+v, want /first, /second, direct in that order", methods)
	}
}

func TestParseJSONErrorNamesFile(t *testing.T) {
	src := "{\"provider_installation\": {\n  \"direct\": {},\n  \"filesystem_mirror\": {\"include\": [\"hashicorp/*\"]}\n}}"
	_, diagnostics := Parse([]byte(src), "rc.json")
	// HCL 1 keeps no positions for JSON, so the file is named in the detail.
	if len(diagnostics) != 1 || diagnostics[0].Summary != "Missing filesystem mirror path" || !strings.HasPrefix(diagnostics[0].Detail, "In rc.json: ") {
		t.Errorf("diagnostics = %v, want a missing path error naming the file", diagnostics)
	}
}

package workdir

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestOpenStoreCreatesDatabaseAndWorkspace(t *testing.T) {
	dir := t.TempDir()
	store, closeStore, err := OpenStore(dir, "default", "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := store.EnsureWorkspace(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if first.Lineage == "" {
		t.Error("the workspace record has no lineage")
	}
	if err := closeStore(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terrane", "state.db")); err != nil {
		t.Fatalf("no database at .terrane/state.db: %v", err)
	}

	// Reopening finds the same workspace rather than starting a new lineage.
	store, closeStore, err = OpenStore(dir, "default", "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore()
	again, err := store.EnsureWorkspace(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if again.Lineage != first.Lineage {
		t.Errorf("lineage changed from %s to %s on reopening", first.Lineage, again.Lineage)
	}
}

func TestOpenStoreSeparatesWorkspaces(t *testing.T) {
	dir := t.TempDir()
	lineages := map[string]string{}
	for _, workspace := range []string{"default", "staging"} {
		store, closeStore, err := OpenStore(dir, "default", workspace, nil)
		if err != nil {
			t.Fatal(err)
		}
		ws, err := store.EnsureWorkspace(context.Background())
		closeStore()
		if err != nil {
			t.Fatal(err)
		}
		lineages[workspace] = ws.Lineage
	}
	if lineages["default"] == lineages["staging"] {
		t.Error("two workspaces share one lineage")
	}
}

func TestOpenStoreRejectsBadNames(t *testing.T) {
	for _, tc := range []struct{ project, workspace string }{
		{"default", "../escape"},
		{"", "default"},
		{"default", "has space"},
	} {
		if _, _, err := OpenStore(t.TempDir(), tc.project, tc.workspace, nil); err == nil {
			t.Errorf("OpenStore(%q, %q) succeeded", tc.project, tc.workspace)
		}
	}
}

func TestCurrentWorkspace(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(WorkspaceEnvVar, "")
	if got, err := CurrentWorkspace(dir); err != nil || got != "default" {
		t.Errorf("fresh directory: got %q, %v; want default", got, err)
	}
	if err := SelectWorkspace(dir, "blue"); err != nil {
		t.Fatal(err)
	}
	if got, _ := CurrentWorkspace(dir); got != "blue" {
		t.Errorf("after selecting blue: got %q", got)
	}
	t.Setenv(WorkspaceEnvVar, "green")
	if got, _ := CurrentWorkspace(dir); got != "green" {
		t.Errorf("with TF_WORKSPACE=green: got %q", got)
	}
	t.Setenv(WorkspaceEnvVar, "not/valid")
	if _, err := CurrentWorkspace(dir); err == nil {
		t.Error("an invalid TF_WORKSPACE was accepted")
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTokensAsOpenTofuFindsThem finds a serve endpoint's token in the CLI
// configuration's credentials blocks (for HOST:PORT, else for HOST) and in
// TF_TOKEN_ variables.
func TestTokensAsOpenTofuFindsThem(t *testing.T) {
	dir := t.TempDir()
	rc := filepath.Join(dir, "terraformrc")
	if err := os.WriteFile(rc, []byte(`
credentials "state.example.com:8502" {
  token = "for-the-port"
}
credentials "other.example.com" {
  token = "for-the-host"
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TERRANE_CLI_CONFIG_FILE", rc)
	t.Setenv("TF_TOKEN_env_example_com", "from-the-environment")
	tokens, ds := Tokens(dir)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	for host, want := range map[string]string{
		"state.example.com:8502": "for-the-port",
		"state.example.com:9000": "",
		"other.example.com:9000": "for-the-host",
		"env.example.com:8502":   "from-the-environment",
		"nowhere.example.com:1":  "",
	} {
		if got := tokens(host); got != want {
			t.Errorf("token for %s = %q, want %q", host, got, want)
		}
	}
}

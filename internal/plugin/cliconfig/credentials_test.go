package cliconfig

import (
	"os"
	"path/filepath"
	"testing"

	svchost "github.com/hashicorp/terraform-svchost"
)

// TestCredentialsFile reads the tokens login stores beside those of the
// CLI configuration file, which wins for a host both name, and writes the
// file back keeping what else it holds.
func TestCredentialsFile(t *testing.T) {
	home := t.TempDir()
	rc := filepath.Join(home, ".terraformrc")
	if err := os.WriteFile(rc, []byte("credentials \"manual.example.com\" {\n  token = \"from-rc\"\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := Environment{HomeDir: home, Getenv: func(name string) string { return "" }}
	file := CredentialsFile(env)
	if file != filepath.Join(home, ".terraform.d", "credentials.tfrc.json") {
		t.Fatalf("credentials file %s", file)
	}
	stored, _ := svchost.ForComparison("Stored.Example.COM")
	manual, _ := svchost.ForComparison("manual.example.com")
	for host, token := range map[svchost.Hostname]string{stored: "from-login", manual: "from-login-too"} {
		if err := StoreCredentials(file, host, token); err != nil {
			t.Fatal(err)
		}
	}
	cfg, ds := Load(env)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if c := cfg.Credentials[stored]; c.Token != "from-login" || !c.InCredentialsFile {
		t.Errorf("stored host: %+v", c)
	}
	if c := cfg.Credentials[manual]; c.Token != "from-rc" || c.InCredentialsFile {
		t.Errorf("a host the CLI configuration names keeps its block: %+v", c)
	}
	if err := ForgetCredentials(file, stored); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(file)
	if want := "{\n  \"credentials\": {\n    \"manual.example.com\": {\n      \"token\": \"from-login-too\"\n    }\n  }\n}"; string(src) != want {
		t.Errorf("after forgetting stored.example.com:\n%s", src)
	}
}

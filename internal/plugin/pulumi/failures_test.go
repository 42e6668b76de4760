package pulumi

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// TestConfigureMissingKeysNamed: ConfigureErrorMissingKeys becomes one
// diagnostic per key, naming the provider block attribute to set, whatever
// form of key the provider used.
func TestConfigureMissingKeysNamed(t *testing.T) {
	mirror := providertest.Build(t)
	p, err := Launch(context.Background(), Config{Path: mirror.PulumiExecutable("tpulumi"), Logger: hclog.NewNullLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	config := cty.ObjectVal(map[string]cty.Value{"root_dir": cty.NullVal(cty.String), "fail_configure": cty.StringVal("missing-keys")})
	resp := p.ConfigureProvider(context.Background(), providers.ConfigureProviderRequest{Config: config})
	if len(resp.Diagnostics) != 2 {
		t.Fatalf("want one diagnostic per missing key, got %d: %v", len(resp.Diagnostics), resp.Diagnostics.Err())
	}
	for i, want := range []string{"root_dir", "api_token"} {
		d := resp.Diagnostics[i]
		for _, text := range []string{`"` + want + `"`, `provider "tpulumi" block`} {
			if !strings.Contains(d.Detail, text) {
				t.Errorf("diagnostic %d lacks %q: %s", i, text, d.Detail)
			}
		}
		if !d.AttributePath.Equals(cty.GetAttrPath(want)) {
			t.Errorf("diagnostic %d points at %#v, want %s", i, d.AttributePath, want)
		}
	}
}

// TestProviderExitingBeforePortNamed: a provider that ends before printing
// its port is reported naming the binary, with what it wrote to stderr.
func TestProviderExitingBeforePortNamed(t *testing.T) {
	mirror := providertest.Build(t)
	path := mirror.PulumiExecutable("tpulumi")
	_, err := Launch(context.Background(), Config{Path: path, Env: []string{"TPULUMI_EXIT_EARLY=1"}, Logger: hclog.NewNullLogger()})
	if err == nil {
		t.Fatal("a provider that exited at once was accepted")
	}
	for _, want := range []string{path, "without printing the port", "exiting before printing a port"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("diagnostic lacks %q:\n%v", want, err)
		}
	}
}

// TestHealthChecksKeepProviderAlive: a provider checking the engine's
// health often (as SDK-built providers do, every few minutes) keeps
// running and answering through many checks; one whose engine stops
// answering ends itself.
func TestHealthChecksKeepProviderAlive(t *testing.T) {
	p, _, _ := launchTPulumi(t, "TPULUMI_HEALTH_INTERVAL=100ms")
	time.Sleep(1500 * time.Millisecond) // a dozen or so checks
	if p.Exited() {
		t.Fatalf("the provider stopped although the engine answered its health checks; stderr:\n%s", p.StderrTail())
	}
	if _, err := p.PluginVersion(context.Background()); err != nil {
		t.Fatalf("the provider no longer answers: %v", err)
	}

	// Without the engine's answers the provider stops by itself.
	p.engine.stop()
	deadline := time.Now().Add(10 * time.Second)
	for !p.Exited() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !p.Exited() {
		t.Error("the provider kept running after the engine stopped answering its health checks")
	}
}

package plugin

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/terrane/terrane/internal/addrs"
)

func TestSchemaCacheSkipsGetProviderSchemaOnTheNextRun(t *testing.T) {
	for _, tp := range allTestProviders {
		t.Run(tp.name, func(t *testing.T) {
			dir := t.TempDir()
			schemaRPC := "GetProviderSchema"
			if tp.protocol == 5 {
				schemaRPC = "GetSchema"
			}
			withStore := func(cfg *Config) { cfg.Schemas = NewSchemaStore(dir) }

			first := launchTest(t, tp, withStore)
			want := first.GetProviderSchema(context.Background())
			noErrors(t, "GetProviderSchema", want.Diagnostics)
			if n := first.CallCount(schemaRPC); n != 1 {
				t.Fatalf("first run sent %s %d times, want 1", schemaRPC, n)
			}
			if !want.ServerCapabilities.GetProviderSchemaOptional {
				t.Skipf("%s does not declare get_provider_schema_optional", tp.name)
			}
			first.Close()

			// A new SchemaStore stands for a new Terrane process: only
			// the disk cache carries the schema over.
			second := launchTest(t, tp, withStore)
			got := second.GetProviderSchema(context.Background())
			noErrors(t, "GetProviderSchema from cache", got.Diagnostics)
			if n := second.CallCount(schemaRPC); n != 0 {
				t.Errorf("second run sent %s %d times, want 0 (cached)", schemaRPC, n)
			}
			if len(got.ResourceTypes) != len(want.ResourceTypes) || got.ResourceTypes[tp.resource].Block == nil {
				t.Errorf("cached schema has %d resource types, want %d including %s", len(got.ResourceTypes), len(want.ResourceTypes), tp.resource)
			}
			// The process works without having been asked for its schema.
			validated := second.ValidateResourceConfig(context.Background(), validateThingRequest(got, tp))
			noErrors(t, "ValidateResourceConfig after a cached schema", validated.Diagnostics)
		})
	}
}

func TestReattachToAProviderStartedByHand(t *testing.T) {
	path := testProviderPath(t, "tpf")
	cmd := exec.Command(path, "-debug")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	reattach := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			line := strings.TrimSpace(scanner.Text())
			if value, ok := strings.CutPrefix(line, "TF_REATTACH_PROVIDERS='"); ok {
				reattach <- strings.TrimSuffix(value, "'")
			}
		}
	}()
	select {
	case value := <-reattach:
		t.Setenv(EnvReattachProviders, value)
	case <-time.After(30 * time.Second):
		t.Fatal("the provider started in debug mode printed no TF_REATTACH_PROVIDERS")
	}

	// The provider prints its registry.terraform.io address; Terrane's
	// default registry is registry.opentofu.org. Both must match.
	p, err := Launch(context.Background(), Config{
		Provider: addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "terrane", Type: "tpf"},
		Path:     "/nonexistent/terraform-provider-tpf",
		Logger:   hclog.NewNullLogger(),
	})
	if err != nil {
		t.Fatalf("reattaching: %v", err)
	}
	schemas := p.GetProviderSchema(context.Background())
	noErrors(t, "GetProviderSchema over the reattached connection", schemas.Diagnostics)
	if _, ok := schemas.ResourceTypes["tpf_thing"]; !ok {
		t.Error("reattached provider's schema lacks tpf_thing")
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	// The developer's process survives Terrane closing the connection.
	time.Sleep(200 * time.Millisecond)
	if cmd.ProcessState != nil {
		t.Error("Close killed the provider the developer started")
	}
}

func TestBadReattachSettings(t *testing.T) {
	t.Setenv(EnvReattachProviders, `{"terrane/tpf": `)
	_, err := Launch(context.Background(), Config{
		Provider: addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "terrane", Type: "tpf"},
		Path:     "/nonexistent",
	})
	if err == nil || !strings.Contains(err.Error(), EnvReattachProviders) {
		t.Fatalf("Launch with broken %s = %v, want an error naming the variable", EnvReattachProviders, err)
	}
}

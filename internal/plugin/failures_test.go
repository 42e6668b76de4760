package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// configuredThing launches a provider, configures it, and returns what a
// test needs to plan and apply its thing resource.
func configuredThing(t *testing.T, tp testProvider) (*Provider, string, *schema.Block) {
	t.Helper()
	ctx := context.Background()
	p := launchTest(t, tp)
	schemas := p.GetProviderSchema(ctx)
	noErrors(t, "GetProviderSchema", schemas.Diagnostics)
	noErrors(t, "ConfigureProvider", p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{
		Config: objectVal(schemas.Provider.Block, map[string]cty.Value{"root_dir": cty.StringVal(t.TempDir())}),
	}).Diagnostics)
	typeName := tp.resource
	return p, typeName, schemas.ResourceTypes[typeName].Block
}

// applyWithFail plans a thing with the given failure switch and applies it.
func applyWithFail(ctx context.Context, t *testing.T, p *Provider, typeName string, block *schema.Block, fail string) providers.ApplyResourceChangeResponse {
	t.Helper()
	config := objectVal(block, map[string]cty.Value{"name": cty.StringVal("doomed"), "fail": cty.StringVal(fail)})
	null := cty.NullVal(block.ImpliedType())
	plan := p.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: null, ProposedNewState: proposedNew(block, config), Config: config,
	})
	noErrors(t, "PlanResourceChange", plan.Diagnostics)
	return p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: typeName, PriorState: null, PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate,
	})
}

func TestProviderErrorIsADiagnosticWithItsAttribute(t *testing.T) {
	for _, tp := range allTestProviders {
		t.Run(tp.name, func(t *testing.T) {
			if !tp.failSwitches {
				t.Skipf("%s has no failure switches", tp.name)
			}
			p, typeName, block := configuredThing(t, tp)
			resp := applyWithFail(context.Background(), t, p, typeName, block, "apply_error")
			if !resp.Diagnostics.HasErrors() {
				t.Fatal("apply with fail = apply_error succeeded")
			}
			d := resp.Diagnostics[0]
			if d.Summary != "Apply failed on request" || len(d.AttributePath) != 1 || d.AttributePath[0] != (cty.GetAttrStep{Name: "fail"}) {
				t.Errorf("diagnostic = %q at %#v, want the provider's summary at attribute fail", d.Summary, d.AttributePath)
			}
		})
	}
}

func TestProviderCrashNamesProviderCallAndPanic(t *testing.T) {
	for _, tp := range allTestProviders {
		t.Run(tp.name, func(t *testing.T) {
			if !tp.failSwitches {
				t.Skipf("%s has no failure switches", tp.name)
			}
			p, typeName, block := configuredThing(t, tp)
			resp := applyWithFail(context.Background(), t, p, typeName, block, "crash")
			if !resp.Diagnostics.HasErrors() {
				t.Fatal("apply with fail = crash succeeded")
			}
			d := resp.Diagnostics[0]
			t.Logf("%s: %s", d.Summary, d.Detail)
			if d.Summary != "Provider crashed" {
				t.Fatalf("summary = %q (%s), want Provider crashed", d.Summary, d.Detail)
			}
			if !containsAll(d.Detail, "registry.terraform.io/terrane/"+tp.name, "ApplyResourceChange for "+typeName, "panic: ", `fail = "crash"`) {
				t.Errorf("crash diagnostic lacks provider, call, type or panic text:\n%s", d.Detail)
			}
			// Later calls fail cleanly too, and Close still works.
			again := p.ReadResource(context.Background(), providers.ReadResourceRequest{TypeName: typeName, PriorState: cty.NullVal(block.ImpliedType())})
			if !again.Diagnostics.HasErrors() {
				t.Error("a call to a crashed provider succeeded")
			}
			if err := p.Close(); err != nil {
				t.Errorf("Close after crash: %v", err)
			}
		})
	}
}

func TestHangingCallEndsWithTheContext(t *testing.T) {
	for _, tp := range allTestProviders {
		t.Run(tp.name, func(t *testing.T) {
			if !tp.failSwitches {
				t.Skipf("%s has no failure switches", tp.name)
			}
			p, typeName, block := configuredThing(t, tp)
			ctx := withTimeout(t, 2*time.Second)
			start := time.Now()
			resp := applyWithFail(ctx, t, p, typeName, block, "hang")
			if elapsed := time.Since(start); elapsed > 10*time.Second {
				t.Errorf("hanging call returned after %v, long after its deadline", elapsed)
			}
			if !resp.Diagnostics.HasErrors() {
				t.Fatal("hanging apply succeeded")
			}
			// The deadline travels to the provider too; when it notices
			// first, its own error answer arrives instead of Terrane's.
			d := resp.Diagnostics[0]
			if d.Summary == "Provider did not answer" && !containsAll(d.Detail, tp.name, "ApplyResourceChange for "+typeName, "time limit") {
				t.Errorf("diagnostic does not name the provider, call and type: %s", d.Detail)
			}
		})
	}
}

func TestNoCommonProtocolVersion(t *testing.T) {
	// A plugin that only speaks protocol 4, as providers for Terraform
	// 0.11 did: it prints a handshake line offering version 4 and waits.
	script := filepath.Join(t.TempDir(), "terraform-provider-ancient")
	err := os.WriteFile(script, []byte("#!/bin/sh\necho '1|4|tcp|127.0.0.1:1|grpc'\nexec sleep 30\n"), 0o755)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Launch(context.Background(), Config{Path: script, Logger: nil, StartTimeout: 10 * time.Second})
	if err == nil {
		t.Fatal("Launch of a protocol 4 provider succeeded")
	}
	msg := err.Error()
	if !containsAll(msg, "Incompatible provider protocol", "terraform-provider-ancient", "protocol version 4", "5 and 6") {
		t.Errorf("error does not name the provider, its version and Terrane's: %s", msg)
	}
}

func TestNotAPlugin(t *testing.T) {
	script := filepath.Join(t.TempDir(), "terraform-provider-chatty")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'hello, I am not a plugin'\necho 'some detail' >&2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Launch(context.Background(), Config{Path: script, StartTimeout: 10 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "terraform-provider-chatty") {
		t.Fatalf("Launch of a non-plugin = %v, want an error naming it", err)
	}
}

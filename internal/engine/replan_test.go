package engine

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plugin/pulumi"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// withPulumi adds the Pulumi test provider (pulumi/tpulumi) to the harness.
func (h *harness) withPulumi() {
	h.t.Helper()
	provider, err := addrs.ParseProviderSource("pulumi/tpulumi")
	if err != nil {
		h.t.Fatal(err)
	}
	path := providertest.Build(h.t).PulumiExecutable("tpulumi")
	h.factories[provider] = func(ctx context.Context) (providers.Interface, error) {
		return pulumi.Launch(ctx, pulumi.Config{Path: path, Logger: hclog.NewNullLogger()})
	}
}

// TestCreateKeepsPlannedSeed: tpulumi derives nonce from the random seed
// its Check gets, which the plan keeps in the object's private data. The
// apply's re-plan of a new object must get the same seed, or the nonce the
// plan showed is not the one created (and the apply fails as an
// inconsistent final plan).
func TestCreateKeepsPlannedSeed(t *testing.T) {
	h := newHarness(t)
	h.withPulumi()
	h.writeConfig(map[string]string{"main.tf": fmt.Sprintf(`
terraform {
  required_providers {
    tpulumi = { source = "pulumi/tpulumi" }
  }
}
provider "tpulumi" {
  root_dir = %q
}
resource "tpulumi_thing" "a" {
  name = "a"
}
resource "tpulumi_thing" "b" {
  name    = "b"
  content = tpulumi_thing.a.nonce
}
`, h.cloud)})
	h.apply(h.plan(PlanOpts{}))
	nonce := h.recorded("tpulumi_thing.a", "nonce")
	if nonce == "" {
		t.Fatal("tpulumi_thing.a has no nonce; the provider should choose one")
	}
	if got := h.recorded("tpulumi_thing.b", "content"); got != nonce {
		t.Errorf("tpulumi_thing.b was created with content %q, want tpulumi_thing.a's nonce %q", got, nonce)
	}
	if got := actions(h.plan(PlanOpts{})); got["tpulumi_thing.a"] != plans.NoOp || got["tpulumi_thing.b"] != plans.NoOp {
		t.Errorf("plan after apply = %v, want no changes", got)
	}
}

func TestDescribeValueErrorNamesThePath(t *testing.T) {
	addr := mustInstance(t, "tpf_thing.x[0]")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{cty.GetAttrPath("tags").Index(cty.StringVal("a")).NewErrorf("was planned as %q, but now %q", "x", "y"),
			`tpf_thing.x[0].tags["a"]: was planned as "x", but now "y"`},
		{cty.GetAttrPath("name").NewErrorf("was null, but now cty.StringVal(\"n\")"),
			`tpf_thing.x[0].name: was null, but now cty.StringVal("n")`},
		{errors.New("root object was present, but now absent"), `tpf_thing.x[0]: root object was present, but now absent`},
	} {
		if got := describeValueError(addr, tc.err); got != tc.want {
			t.Errorf("describeValueError(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

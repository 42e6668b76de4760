package engine

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/builtin/remotestate"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/workdir"
)

// TestRemoteStateReadsAnotherWorkspace reads the outputs another workspace
// of the embedded store recorded through the built-in provider's
// terraform_remote_state, uses one in a resource and keeps the sensitive
// one sensitive in the outputs that pass it on.
func TestRemoteStateReadsAnotherWorkspace(t *testing.T) {
	h := newHarness(t)
	workdirDir := t.TempDir()
	network, closeNetwork, err := workdir.OpenStore(workdirDir, "proj", "network", nil)
	if err != nil {
		t.Fatal(err)
	}
	err = network.WriteOutputs(t.Context(), map[string]*states.OutputValue{
		"vpc_id": {Value: cty.StringVal("vpc-1")},
		"token":  {Value: cty.StringVal("s3cret"), Sensitive: true},
	})
	_ = closeNetwork()
	if err != nil {
		t.Fatal(err)
	}
	h.config(`
data "terraform_remote_state" "network" {
  backend   = "terrane"
  workspace = "network"
}
resource "tpf_thing" "x" {
  name = data.terraform_remote_state.network.outputs.vpc_id
}
output "token" {
  value     = data.terraform_remote_state.network.outputs.token
  sensitive = true
}
output "vpc" {
  value = data.terraform_remote_state.network.outputs.vpc_id
}`)
	h.remoteState = &remotestate.DataSource{OpenWorkspace: remotestate.WorkingDirWorkspaces(workdirDir), Project: "proj"}
	plan := h.plan(PlanOpts{})
	if got := actions(plan)["tpf_thing.x"]; got != plans.Create {
		t.Fatalf("tpf_thing.x planned as %s, want create", got)
	}
	h.apply(plan)
	if got := h.recorded("tpf_thing.x", "name"); got != "vpc-1" {
		t.Errorf("tpf_thing.x name = %q, want vpc-1 from the other workspace", got)
	}
	outputs := map[string]*plans.OutputChange{}
	for _, src := range plan.Changes.Outputs {
		o, err := src.Decode()
		if err != nil {
			t.Fatal(err)
		}
		outputs[o.Addr.OutputValue.Name] = o
	}
	if token := outputs["token"]; token == nil || !token.After.HasMark(marks.Sensitive) {
		t.Errorf("output token = %#v, want the remote output's sensitive mark kept", token)
	}
	if vpc := outputs["vpc"]; vpc == nil || !vpc.After.RawEquals(cty.StringVal("vpc-1")) {
		t.Errorf("output vpc = %+v, want vpc-1", vpc)
	}

}

package planfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
)

// testdata/terraform-1.11 holds a plan made by the terraform 1.11 binary
// over main.tf (after applying an earlier version of it), and plan.json,
// what "terraform show -json" says about that plan.
const terraformFixture = "testdata/terraform-1.11"

// terraformDataType is the terraform_data resource type's schema type.
var terraformDataType = cty.Object(map[string]cty.Type{
	"id":               cty.String,
	"input":            cty.DynamicPseudoType,
	"output":           cty.DynamicPseudoType,
	"triggers_replace": cty.DynamicPseudoType,
})

// showJSON is the part of "terraform show -json" the test compares with.
type showJSON struct {
	Timestamp string `json:"timestamp"`
	Variables map[string]struct {
		Value any `json:"value"`
	} `json:"variables"`
	ResourceChanges []struct {
		Address         string `json:"address"`
		PreviousAddress string `json:"previous_address"`
		ActionReason    string `json:"action_reason"`
		Change          struct {
			Actions []string `json:"actions"`
		} `json:"change"`
	} `json:"resource_changes"`
}

func readTerraformFixture(t *testing.T) (*Reader, *plans.Plan, showJSON) {
	t.Helper()
	reader, err := Open(filepath.Join(terraformFixture, "tfplan"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reader.Close() })
	plan, err := reader.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	var show showJSON
	raw, err := os.ReadFile(filepath.Join(terraformFixture, "plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &show); err != nil {
		t.Fatal(err)
	}
	return reader, plan, show
}

// terraformActions spells an action as "terraform show -json" does.
func terraformActions(action plans.Action) []string {
	switch action {
	case plans.DeleteThenCreate:
		return []string{"delete", "create"}
	case plans.CreateThenDelete:
		return []string{"create", "delete"}
	default:
		return []string{action.String()}
	}
}

func TestReadTerraformPlanMatchesTerraformShow(t *testing.T) {
	_, plan, show := readTerraformFixture(t)
	wantTime, err := time.Parse(time.RFC3339, show.Timestamp)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Timestamp.Equal(wantTime) {
		t.Errorf("timestamp %s, terraform says %s", plan.Timestamp, wantTime)
	}
	if plan.UIMode != plans.NormalMode || !plan.Applyable || plan.Errored || !plan.Complete {
		t.Errorf("mode %s applyable %t errored %t complete %t; want a normal, applyable, complete plan", plan.UIMode, plan.Applyable, plan.Errored, plan.Complete)
	}
	// Terraform records the variables set when planning (-var name=beta),
	// not those left at their defaults.
	name, err := plan.VariableValue("name")
	if err != nil {
		t.Fatal(err)
	}
	if want := show.Variables["name"].Value; name.Type() != cty.String || name.AsString() != want {
		t.Errorf("variable name = %#v, terraform says %v", name, want)
	}
	if len(plan.Changes.Resources) != len(show.ResourceChanges) {
		t.Fatalf("%d resource changes, terraform says %d", len(plan.Changes.Resources), len(show.ResourceChanges))
	}
	for _, want := range show.ResourceChanges {
		t.Run(want.Address, func(t *testing.T) {
			change := findChange(t, plan, want.Address)
			if got := terraformActions(change.Action); !equalStrings(got, want.Change.Actions) {
				t.Errorf("actions %v, terraform says %v", got, want.Change.Actions)
			}
			if got := change.ActionReason.String(); got != want.ActionReason {
				t.Errorf("action reason %q, terraform says %q", got, want.ActionReason)
			}
			wantPrev := want.PreviousAddress
			if wantPrev == "" {
				wantPrev = want.Address
			}
			if got := change.PrevRunAddr.String(); got != wantPrev {
				t.Errorf("previous address %s, terraform says %s", got, wantPrev)
			}
			if got := change.ProviderAddr.String(); got != `provider["terraform.io/builtin/terraform"]` {
				t.Errorf("provider %s", got)
			}
			if _, err := change.Decode(plans.ObjectTypes{Value: terraformDataType}); err != nil {
				t.Errorf("values do not decode as terraform_data objects: %s", err)
			}
		})
	}
}

func TestReadTerraformPlanValues(t *testing.T) {
	_, plan, _ := readTerraformFixture(t)
	types := plans.ObjectTypes{Value: terraformDataType}

	updated, err := findChange(t, plan, "terraform_data.updated").Decode(types)
	if err != nil {
		t.Fatal(err)
	}
	if got := updated.Before.GetAttr("input"); !got.RawEquals(cty.StringVal("one")) {
		t.Errorf("before input = %#v, want \"one\"", got)
	}
	if got := updated.After.GetAttr("input"); !got.RawEquals(cty.StringVal("two")) {
		t.Errorf("after input = %#v, want \"two\"", got)
	}
	if updated.After.GetAttr("output").IsKnown() {
		t.Errorf("after output is known (%#v); terraform plans it as known after apply", updated.After.GetAttr("output"))
	}

	created, err := findChange(t, plan, "terraform_data.created").Decode(types)
	if err != nil {
		t.Fatal(err)
	}
	if !created.Before.IsNull() || created.After.GetAttr("id").IsKnown() {
		t.Errorf("create: before %#v, after id %#v; want null and unknown", created.Before, created.After.GetAttr("id"))
	}
	secret := created.After.GetAttr("input").GetAttr("secret")
	if !secret.HasMark(marks.Sensitive) {
		t.Errorf("input.secret of the created object is not sensitive: %#v", secret)
	}
	if created.After.GetAttr("input").GetAttr("name").HasMark(marks.Sensitive) {
		t.Errorf("input.name of the created object is sensitive, but only the secret should be")
	}

	replaced := findChange(t, plan, "terraform_data.replaced")
	if len(replaced.RequiredReplace) != 1 || replaced.RequiredReplace[0].Equals(cty.GetAttrPath("triggers_replace")) == false {
		t.Errorf("required replace %#v, want triggers_replace", replaced.RequiredReplace)
	}
}

func TestReadTerraformPlanOutputsChecksConfig(t *testing.T) {
	reader, plan, _ := readTerraformFixture(t)
	createdID := plan.Changes.Output("created_id")
	secret := plan.Changes.Output("secret")
	if createdID == nil || secret == nil {
		t.Fatalf("outputs created_id and secret missing from %d output changes", len(plan.Changes.Outputs))
	}
	if createdID.Action != plans.Create || createdID.Sensitive || !secret.Sensitive {
		t.Errorf("created_id: %s sensitive=%t; secret sensitive=%t", createdID.Action, createdID.Sensitive, secret.Sensitive)
	}
	decoded, err := createdID.Decode()
	if err != nil {
		t.Fatal(err)
	}
	if decoded.After.IsKnown() {
		t.Errorf("created_id is %#v, want unknown", decoded.After)
	}

	var check *plans.CheckResult
	for i := range plan.Checks {
		if plan.Checks[i].ConfigAddr == "check.name_nonempty" {
			check = &plan.Checks[i]
		}
	}
	if check == nil || check.Kind != plans.CheckableCheck || check.Status != plans.CheckPass {
		t.Errorf("check.name_nonempty result %+v, want a passing check", check)
	}

	snapshot, err := reader.ReadConfigSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	wantMain, _ := os.ReadFile(filepath.Join(terraformFixture, "main.tf"))
	if root := snapshot.Modules[""]; root == nil || string(root.Files["main.tf"]) != string(wantMain) {
		t.Errorf("root module of the snapshot does not hold main.tf: %+v", snapshot.Modules)
	}
	if lock, found, err := reader.ReadLockFile(); err != nil || !found || len(lock) == 0 {
		t.Errorf("lock file: found=%t err=%v", found, err)
	}
	if prior, prevRun, found, err := reader.ReadTerraformState(); err != nil || !found || !json.Valid(prior) || !json.Valid(prevRun) {
		t.Errorf("terraform state: found=%t err=%v", found, err)
	}
}

func findChange(t *testing.T, plan *plans.Plan, addr string) *plans.ResourceInstanceChangeSrc {
	t.Helper()
	for _, change := range plan.Changes.Resources {
		if change.Addr.String() == addr {
			return change
		}
	}
	t.Fatalf("no change to %s in the plan", addr)
	return nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

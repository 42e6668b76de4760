package ui

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// The cases under testdata/terraform were made with Terraform 1.11 and
// terraform_data resources (see testdata/terraform/README.md): plan.json is
// "terraform show -json" of a saved plan, trimmed to its changes, and
// plan.txt is "terraform show -no-color" of the same plan. Each test turns
// the JSON back into a plan and checks that Terrane renders the same text,
// apart from the product's name.
func TestRenderPlanMatchesTerraform(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode plans.Mode
	}{
		{"create", plans.NormalMode},
		{"update", plans.NormalMode},
		{"replace_requested", plans.NormalMode},
		{"destroy", plans.DestroyMode},
		{"no_changes", plans.NormalMode},
		{"outputs_only", plans.NormalMode},
		{"sensitive_create", plans.NormalMode},
		{"sensitive_cbd", plans.NormalMode},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join("testdata", "terraform", tc.name)
			plan := planFromTerraformJSON(t, filepath.Join(dir, "plan.json"))
			plan.UIMode = tc.mode
			want, err := os.ReadFile(filepath.Join(dir, "plan.txt"))
			if err != nil {
				t.Fatal(err)
			}
			// Where OpenTofu renders the same plan differently, its
			// rendering is the requirement; see testdata/terraform/README.md.
			if opentofu, err := os.ReadFile(filepath.Join(dir, "plan.opentofu.txt")); err == nil {
				want = opentofu
			}
			var got bytes.Buffer
			if ds := RenderPlan(&got, plan, terraformDataSchemas(), PlanOptions{}); len(ds) > 0 {
				t.Fatalf("RenderPlan reported %v", ds)
			}
			wantText := unwrapProse(openTofuWording(strings.ReplaceAll(string(want), "Terraform", productName)))
			if gotText := unwrapProse(got.String()); gotText != wantText {
				t.Errorf("rendering differs from Terraform's\n--- got\n%s\n--- want\n%s", gotText, wantText)
			}
		})
	}
}

// unwrapProse joins the lines of wrapped prose paragraphs: a line starting
// with a letter that follows another such line. Diff lines start with
// spaces or symbols and are left alone, so wrapping at a different column
// (the product names differ in length) does not count as a difference.
func unwrapProse(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	startsWithLetter := regexp.MustCompile(`^[A-Za-z]`)
	for i, line := range lines {
		if i > 0 && startsWithLetter.MatchString(line) && startsWithLetter.MatchString(lines[i-1]) {
			out[len(out)-1] += " " + line
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

var builtinTerraform = addrs.NewBuiltInProvider("terraform")

// terraformDataSchemas is the schema of the built-in terraform_data
// resource type.
func terraformDataSchemas() *providers.Schemas {
	block := &schema.Block{Attributes: map[string]*schema.Attribute{
		"id":               {Type: cty.String, Computed: true},
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
	}}
	return &providers.Schemas{Providers: map[addrs.Provider]providers.GetProviderSchemaResponse{
		builtinTerraform: {ResourceTypes: map[string]schema.Schema{"terraform_data": {Block: block}}},
	}}
}

type terraformJSONChange struct {
	Actions         []string        `json:"actions"`
	Before          json.RawMessage `json:"before"`
	After           json.RawMessage `json:"after"`
	AfterUnknown    json.RawMessage `json:"after_unknown"`
	BeforeSensitive json.RawMessage `json:"before_sensitive"`
	AfterSensitive  json.RawMessage `json:"after_sensitive"`
	ReplacePaths    [][]any         `json:"replace_paths"`
}

type terraformJSONPlan struct {
	ResourceChanges []struct {
		Address      string              `json:"address"`
		Mode         string              `json:"mode"`
		Type         string              `json:"type"`
		ActionReason string              `json:"action_reason"`
		Deposed      string              `json:"deposed"`
		Change       terraformJSONChange `json:"change"`
	} `json:"resource_changes"`
	OutputChanges map[string]terraformJSONChange `json:"output_changes"`
}

func planFromTerraformJSON(t *testing.T, path string) *plans.Plan {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc terraformJSONPlan
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %s", path, err)
	}
	plan := &plans.Plan{}
	objectType := terraformDataSchemas().Providers[builtinTerraform].ResourceTypes["terraform_data"].Block.ImpliedType()
	for _, rc := range doc.ResourceChanges {
		addr, diags := addrs.ParseAbsResourceInstanceStr(rc.Address)
		if diags.HasErrors() {
			t.Fatalf("address %q: %s", rc.Address, diags.Error())
		}
		change := &plans.ResourceInstanceChange{
			ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{
				Addr: addr, PrevRunAddr: addr, DeposedKey: addrs.DeposedKey(rc.Deposed),
				ProviderAddr: addrs.AbsProviderConfig{Provider: builtinTerraform}.Instance(addrs.NoKey),
				ActionReason: reasonNamed(t, rc.ActionReason),
			},
			Change: plans.Change{
				Action: actionNamed(t, rc.Change.Actions),
				Before: objectFromJSON(t, rc.Change.Before, nil, rc.Change.BeforeSensitive, objectType),
				After:  objectFromJSON(t, rc.Change.After, rc.Change.AfterUnknown, rc.Change.AfterSensitive, objectType),
			},
		}
		for _, steps := range rc.Change.ReplacePaths {
			change.RequiredReplace = append(change.RequiredReplace, pathFromJSON(steps))
		}
		src, err := change.Encode(plans.ObjectTypes{Value: objectType})
		if err != nil {
			t.Fatal(err)
		}
		plan.Changes.Resources = append(plan.Changes.Resources, src)
	}
	for name, oc := range doc.OutputChanges {
		change := &plans.OutputChange{
			Addr: addrs.AbsOutputValue{OutputValue: addrs.OutputValue{Name: name}},
			Change: plans.Change{
				Action: actionNamed(t, oc.Actions),
				Before: valueFromJSON(t, oc.Before, nil, nil),
				After:  valueFromJSON(t, oc.After, oc.AfterUnknown, nil),
			},
			Sensitive: string(oc.BeforeSensitive) == "true" || string(oc.AfterSensitive) == "true",
		}
		src, err := change.Encode()
		if err != nil {
			t.Fatal(err)
		}
		plan.Changes.Outputs = append(plan.Changes.Outputs, src)
	}
	return plan
}

func actionNamed(t *testing.T, names []string) plans.Action {
	t.Helper()
	switch strings.Join(names, ",") {
	case "no-op":
		return plans.NoOp
	case "create":
		return plans.Create
	case "read":
		return plans.Read
	case "update":
		return plans.Update
	case "delete":
		return plans.Delete
	case "delete,create":
		return plans.DeleteThenCreate
	case "create,delete":
		return plans.CreateThenDelete
	}
	t.Fatalf("unknown actions %v", names)
	return plans.NoOp
}

func reasonNamed(t *testing.T, name string) plans.ActionReason {
	t.Helper()
	for _, reason := range []plans.ActionReason{
		plans.ReasonNone, plans.ReplaceBecauseTainted, plans.ReplaceByRequest, plans.ReplaceByTriggers,
		plans.ReplaceBecauseCannotUpdate, plans.DeleteBecauseNoResourceConfig, plans.DeleteBecauseWrongRepetition,
		plans.DeleteBecauseCountIndex, plans.DeleteBecauseEachKey, plans.DeleteBecauseNoModule,
		plans.DeleteBecauseNoMoveTarget, plans.ReadBecauseConfigUnknown, plans.ReadBecauseDependencyPending,
	} {
		if reason.String() == name {
			return reason
		}
	}
	t.Fatalf("unknown action reason %q", name)
	return plans.ReasonNone
}

func pathFromJSON(steps []any) cty.Path {
	var path cty.Path
	for _, step := range steps {
		switch step := step.(type) {
		case string:
			path = path.GetAttr(step)
		case float64:
			path = path.Index(cty.NumberIntVal(int64(step)))
		}
	}
	return path
}

// objectFromJSON builds a terraform_data object from the JSON plan's
// value, unknown and sensitive trees.
func objectFromJSON(t *testing.T, raw, unknown, sensitive json.RawMessage, ty cty.Type) cty.Value {
	t.Helper()
	if len(raw) == 0 || string(raw) == "null" {
		return cty.NullVal(ty)
	}
	v := valueFromJSON(t, raw, unknown, sensitive)
	attrs := map[string]cty.Value{}
	for name, attrType := range ty.AttributeTypes() {
		attr := cty.NullVal(attrType)
		if v.Type().HasAttribute(name) {
			attr = v.GetAttr(name)
		}
		converted, err := convert.Convert(attr, attrType)
		if err != nil {
			t.Fatalf("attribute %s: %s", name, err)
		}
		attrs[name] = converted
	}
	return cty.ObjectVal(attrs)
}

// valueFromJSON decodes a JSON value with the types JSON implies, making
// the parts the unknown tree marks unknown and the parts the sensitive tree
// marks sensitive.
func valueFromJSON(t *testing.T, raw, unknown, sensitive json.RawMessage) cty.Value {
	t.Helper()
	var value, unknownTree, sensitiveTree any
	for _, part := range []struct {
		raw  json.RawMessage
		into *any
	}{{raw, &value}, {unknown, &unknownTree}, {sensitive, &sensitiveTree}} {
		if len(part.raw) > 0 {
			decoder := json.NewDecoder(bytes.NewReader(part.raw))
			decoder.UseNumber()
			if err := decoder.Decode(part.into); err != nil {
				t.Fatal(err)
			}
		}
	}
	return buildValue(t, value, unknownTree, sensitiveTree)
}

func buildValue(t *testing.T, value, unknown, sensitive any) cty.Value {
	if unknown == true {
		return cty.DynamicVal
	}
	var v cty.Value
	switch value := value.(type) {
	case map[string]any:
		attrs := map[string]cty.Value{}
		keys := map[string]bool{}
		for key := range value {
			keys[key] = true
		}
		if unknownMap, ok := unknown.(map[string]any); ok {
			for key := range unknownMap {
				keys[key] = true
			}
		}
		for key := range keys {
			attrs[key] = buildValue(t, value[key], child(unknown, key), child(sensitive, key))
		}
		v = cty.ObjectVal(attrs)
	case []any:
		elements := make([]cty.Value, len(value))
		for i, element := range value {
			elements[i] = buildValue(t, element, index(unknown, i), index(sensitive, i))
		}
		v = cty.TupleVal(elements)
	default:
		encoded, _ := json.Marshal(value)
		ty, err := ctyjson.ImpliedType(encoded)
		if err != nil {
			t.Fatal(err)
		}
		if v, err = ctyjson.Unmarshal(encoded, ty); err != nil {
			t.Fatal(err)
		}
	}
	if sensitive == true {
		v = v.Mark(marks.Sensitive)
	}
	return v
}

func child(tree any, key string) any {
	if m, ok := tree.(map[string]any); ok {
		return m[key]
	}
	return nil
}

func index(tree any, i int) any {
	if s, ok := tree.([]any); ok && i < len(s) {
		return s[i]
	}
	return nil
}

// openTofuWording turns Terraform's plan text into OpenTofu's where the two
// differ in wording only: since OpenTofu 1.11 (opentofu/opentofu#3159,
// internal/command/jsonformat/plan.go actionDescription) the legend says
// which side of "->" is which.
func openTofuWording(text string) string {
	return strings.ReplaceAll(text, "~ update in-place\n", "~ update in-place (current -> planned)\n")
}

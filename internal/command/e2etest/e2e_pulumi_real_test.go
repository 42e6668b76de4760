package e2etest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// realPulumi are the knobs of pulumiRealConfig a cycle turns.
type realPulumi struct {
	thingName, tag, action, size, recordName, content, keeper string
}

// config is a configuration mixing the bridged providers (tpf: the
// framework provider, tpsdk: the SDKv2 provider, both through Pulumi's
// Terraform bridge), the native tpnative (pulumi-go-provider) and the
// Terraform-protocol tpf5, with references both ways: tpf5_thing.origin
// feeds the Pulumi resources (unknown while planning the first apply,
// into Any-typed inputs too), and tpf5_thing.sink reads their outputs.
// Every resource type of the bridged and native providers is here.
func (k realPulumi) config() string {
	return strings.NewReplacer("THING", k.thingName, "TAG", k.tag, "ACTION", k.action, "SIZE", k.size,
		"RECORD", k.recordName, "CONTENT", k.content, "KEEPER", k.keeper).Replace(`
terraform {
  required_providers {
    tpf      = { source = "pulumi/tpf", version = "~> 0.1" }
    tpsdk    = { source = "pulumi/tpsdk", version = "~> 0.1" }
    tpnative = { source = "pulumi/tpnative", version = "~> 0.1" }
    tpf5     = { source = "registry.terraform.io/terrane/tpf5" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}
provider "tpsdk" {
  root_dir = "CLOUD"
}
provider "tpnative" {
  root_dir = "CLOUD"
}
provider "tpf5" {
  root_dir = "CLOUD"
}

resource "tpf5_thing" "origin" {
  name = "origin"
}

resource "tpf_thing" "t" {
  name            = "THING"
  description     = "from ${tpf5_thing.origin.id}"
  tags            = { team = "TAG" }
  dynamic         = tpf5_thing.origin.id
  list_of_strings = ["a", tpf5_thing.origin.id]
  secret          = "s3cret"
}

resource "tpf_blocks" "b" {
  name     = "blocks"
  rules    = [{ action = "ACTION", priority = 1 }]
  settings = { level = SIZE }
}

resource "tpf_nested" "n" {
  single = { name = "nested", size = SIZE }
  map    = { web = { port = 80 } }
}

resource "tpf_versioned" "v" {
  title = "versioned"
  size  = SIZE
}

resource "tpsdk_widget" "w" {
  name  = "THING-widget"
  size  = SIZE
  tags  = [tpf_thing.t.id]
  rules = [{ action = "ACTION" }]
}

resource "tpnative_record" "r" {
  name     = "RECORD"
  content  = "CONTENT"
  tags     = { team = "TAG" }
  echo     = tpf5_thing.origin.id
  triggers = [tpsdk_widget.w.id]
  password = "hunter2"
}

resource "tpnative_stamp" "s" {
  prefix  = "stamp"
  keepers = { k = "KEEPER" }
}

resource "tpf5_thing" "sink" {
  name        = "sink"
  description = "${tpnative_record.r.length} ${tpf_thing.t.id} ${tpsdk_widget.w.size} ${tpnative_stamp.s.value} ${tpf_blocks.b.rule_count}"
}
`)
}

// realPulumiTypes are the Pulumi resource types of the configuration.
var realPulumiTypes = []string{"tpf_thing", "tpf_blocks", "tpf_nested", "tpf_versioned", "tpsdk_widget", "tpnative_record", "tpnative_stamp"}

// TestE2EPulumiBridgedAndNativeCycle runs every resource type of the
// bridged and native test providers through create, an empty plan, a
// refresh that changes nothing, an in-place update, a replacement, import
// and destroy, mixed with Terraform-protocol resources, as the released
// bridged and native providers are used.
func TestE2EPulumiBridgedAndNativeCycle(t *testing.T) {
	t.Parallel()
	k := realPulumi{thingName: "thing", tag: "infra", action: "allow", size: "1", recordName: "record", content: "hello", keeper: "one"}
	p := newPulumiProjectWith(t, k.config(), "tpf", "tpsdk", "tpnative")

	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "first plan", out, "Plan: 9 to add, 0 to change, 0 to destroy.",
		// Unknown values flow into Any-typed inputs with their types.
		"echo     = (known after apply)", "triggers = [",
		// Secret inputs, of the bridged schema and the native one, stay hidden.
		"password = (sensitive value)", "secret          = (sensitive value)")
	for _, secret := range []string{"hunter2", "s3cret"} {
		if strings.Contains(out, secret) {
			t.Errorf("the plan shows the secret %q:\n%s", secret, out)
		}
	}
	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "first apply", out, "Apply complete! Resources: 9 added, 0 changed, 0 destroyed.")
	for _, kind := range realPulumiTypes {
		if n := len(p.objects(kind)); n != 1 {
			t.Errorf("after the first apply the cloud holds %d %s objects, want 1", n, kind)
		}
	}
	origin := p.objects("tpf5_thing")["origin"].attrs["id"]
	if got := p.objects("tpnative_record")["record"].attrs["echo"]; got != origin {
		t.Errorf("tpnative_record.r stored echo %v, want tpf5_thing.origin.id %v", got, origin)
	}
	sink := p.objects("tpf5_thing")["sink"].attrs["description"].(string)
	if !strings.HasPrefix(sink, "5 ") || !strings.Contains(sink, " stamp-") {
		t.Errorf("tpf5_thing.sink.description = %q: the Pulumi outputs did not reach it", sink)
	}
	p.expectNoChanges("plan after the first apply")

	// A refresh reads every object back and changes no record.
	before := p.recordedAttributes()
	out = p.mustRun("apply", "-refresh-only", "-auto-approve", "-no-color")
	if strings.Contains(out, "has changed") || strings.Contains(out, "has been deleted") {
		t.Errorf("a refresh right after apply found changes:\n%s", out)
	}
	if after := p.recordedAttributes(); !reflect.DeepEqual(before, after) {
		t.Errorf("a refresh changed the records:\nbefore %v\nafter  %v", before, after)
	}
	p.expectNoChanges("plan after refresh")

	// In place: a bridged map, block list and nested attributes, an SDKv2
	// attribute, a native input whose update leaves an absent output absent.
	k.tag, k.action, k.size, k.content = "core", "deny", "2", "hallo"
	p.write(k.config())
	out = p.mustRun("plan", "-no-color")
	for _, addr := range []string{"tpf_thing.t", "tpf_blocks.b", "tpf_nested.n", "tpf_versioned.v", "tpsdk_widget.w", "tpnative_record.r"} {
		clitest.AssertContains(t, "update plan", out, addr+" will be updated in-place")
	}
	if strings.Contains(out, "note") {
		t.Errorf("the update plan shows tpnative_record's note, which the record has not and will not have:\n%s", out)
	}
	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "update apply", out, "Resources: 0 added, 7 changed, 0 destroyed.")
	if got := p.objects("tpnative_record")["record"].attrs["revision"]; got != float64(2) {
		t.Errorf("tpnative_record revision after update = %v, want 2 (updated, not replaced)", got)
	}
	p.expectNoChanges("plan after the update")

	// Replacements: the provider's replace (a ForceNew name, a
	// replaceOnChanges name, changed keepers) and -replace for the types
	// that replace only when asked.
	k.thingName, k.recordName, k.keeper = "thing-2", "record-2", "two"
	p.write(k.config())
	out = p.mustRun("apply", "-auto-approve", "-no-color", "-replace=tpf_blocks.b", "-replace=tpf_nested.n", "-replace=tpf_versioned.v")
	for _, addr := range []string{"tpf_thing.t", "tpsdk_widget.w", "tpnative_record.r", "tpnative_stamp.s"} {
		clitest.AssertContains(t, "replace plan", out, addr+" must be replaced")
	}
	for _, addr := range []string{"tpf_blocks.b", "tpf_nested.n", "tpf_versioned.v"} {
		clitest.AssertContains(t, "replace plan", out, addr+" will be replaced, as requested")
	}
	clitest.AssertContains(t, "replace apply", out, "Resources: 7 added, 1 changed, 7 destroyed.")
	for _, kind := range realPulumiTypes {
		if n := len(p.objects(kind)); n != 1 {
			t.Errorf("after the replacements the cloud holds %d %s objects, want 1", n, kind)
		}
	}
	p.expectNoChanges("plan after the replacements")

	// Import: forget each object the providers can read back and import it
	// by ID; the next plan has nothing to do.
	for _, addr := range []string{"tpf_thing.t", "tpf_blocks.b", "tpf_nested.n", "tpf_versioned.v", "tpsdk_widget.w", "tpnative_record.r"} {
		id := p.recordedID(addr)
		p.mustRun("state", "rm", addr)
		p.mustRun("import", "-no-color", addr, id)
	}
	p.expectNoChanges("plan after import")

	out = p.mustRun("destroy", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "destroy", out, "Destroy complete! Resources: 9 destroyed.")
	for _, kind := range append(realPulumiTypes, "tpf5_thing") {
		if n := len(p.objects(kind)); n != 0 {
			t.Errorf("destroy left %d %s objects", n, kind)
		}
	}
	if got := p.recordedInstances(); len(got) != 0 {
		t.Errorf("destroy left records %v", got)
	}
}

// recordedAttributes returns every recorded instance's attributes, from
// state pull, by address.
func (p *e2eProject) recordedAttributes() map[string]any {
	p.t.Helper()
	var state struct {
		Resources []struct {
			Type, Name string
			Instances  []struct {
				Attributes map[string]any
				Private    string
			}
		}
	}
	if err := json.Unmarshal([]byte(p.mustRun("state", "pull")), &state); err != nil {
		p.t.Fatal(err)
	}
	out := map[string]any{}
	for _, r := range state.Resources {
		for _, inst := range r.Instances {
			out[r.Type+"."+r.Name] = inst.Attributes
		}
	}
	return out
}

// recordedID is the recorded id of a resource instance.
func (p *e2eProject) recordedID(addr string) string {
	p.t.Helper()
	attrs, _ := p.recordedAttributes()[addr].(map[string]any)
	id, _ := attrs["id"].(string)
	if id == "" {
		p.t.Fatalf("%s has no recorded id", addr)
	}
	return id
}

// TestE2EPulumiBridgedRefreshKeepsObjects: a bridged resource's outputs go
// back to Read, Diff, Update and Delete as the provider returned them, as
// Pulumi's engine sends them: its "id" is an ordinary output the bridge
// needs, and the bridge rebuilds the Terraform state from outputs the
// attributes cannot carry. Refreshing objects just created changes nothing.
func TestE2EPulumiBridgedRefreshKeepsObjects(t *testing.T) {
	t.Parallel()
	p := newPulumiProjectWith(t, `
terraform {
  required_providers {
    tpf   = { source = "pulumi/tpf", version = "~> 0.1" }
    tpsdk = { source = "pulumi/tpsdk", version = "~> 0.1" }
  }
}
provider "tpf" {
  root_dir = "CLOUD"
}
provider "tpsdk" {
  root_dir = "CLOUD"
}
resource "tpf_thing" "t" {
  name = "thing"
  tags = { team = "infra" }
}
resource "tpf_blocks" "b" {
  name  = "blocks"
  rules = [{ action = "allow", priority = 1 }]
}
resource "tpsdk_widget" "w" {
  name  = "widget"
  size  = 2
  rules = [{ action = "allow" }]
}
`, "tpf", "tpsdk")
	p.mustRun("apply", "-auto-approve", "-no-color")
	before := p.recordedAttributes()
	out := p.mustRun("apply", "-refresh-only", "-auto-approve", "-no-color")
	if strings.Contains(out, "has changed") || strings.Contains(out, "has been deleted") {
		t.Errorf("a refresh right after apply found changes:\n%s", out)
	}
	if after := p.recordedAttributes(); !reflect.DeepEqual(before, after) {
		t.Errorf("a refresh changed the records:\nbefore %v\nafter  %v", before, after)
	}
	p.expectNoChanges("plan after refresh")
	out = p.mustRun("destroy", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "destroy", out, "Destroy complete! Resources: 3 destroyed.")
}

// TestE2EPulumiImportThenPlanRecordsConfiguration imports a tpnative_stamp,
// whose provider has no Read of its own (as pulumi-command's resources):
// the imported object has no recorded inputs, and Diff, which looks only
// at keepers, finds no change. Pulumi's engine records the program's
// inputs then (a "same" step). The plan records the configured values the
// import could not read, with no provider call, and the plan after it has
// nothing to do.
func TestE2EPulumiImportThenPlanRecordsConfiguration(t *testing.T) {
	t.Parallel()
	config := `
terraform {
  required_providers {
    tpnative = { source = "pulumi/tpnative", version = "~> 0.1" }
  }
}
provider "tpnative" {
  root_dir = "CLOUD"
}
resource "tpnative_stamp" "s" {
  prefix = "imported"
}
`
	p := newPulumiProjectWith(t, config, "tpnative")
	p.mustRun("apply", "-auto-approve", "-no-color")
	id := p.recordedID("tpnative_stamp.s")
	stored := p.objects("tpnative_stamp")
	p.mustRun("state", "rm", "tpnative_stamp.s")
	p.mustRun("import", "-no-color", "tpnative_stamp.s", id)

	// Without a refresh the plan works from what the import recorded.
	out := p.mustRun("plan", "-refresh=false", "-no-color")
	clitest.AssertContains(t, "plan after import", out, "tpnative_stamp.s will be updated in-place", `+ prefix = "imported"`,
		"Plan: 0 to add, 1 to change, 0 to destroy.")
	out = p.mustRun("apply", "-refresh=false", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "apply after import", out, "Resources: 0 added, 1 changed, 0 destroyed.")
	if got := p.objects("tpnative_stamp"); !reflect.DeepEqual(got, stored) {
		t.Errorf("recording the configuration changed the object: %v, was %v", got, stored)
	}
	if got := p.recordedID("tpnative_stamp.s"); got != id {
		t.Errorf("tpnative_stamp.s id = %q after the apply, want the imported %q", got, id)
	}
	p.expectNoChanges("plan after recording the configuration")
}

// TestE2EPulumiIgnoreChangesSentToProvider: lifecycle.ignore_changes
// reaches a Pulumi provider as Diff's and Update's ignoreChanges, in
// Pulumi's property path form, as Pulumi's engine sends its option.
func TestE2EPulumiIgnoreChangesSentToProvider(t *testing.T) {
	t.Parallel()
	config := func(content string) string {
		return tpulumiOnly + `
resource "tpulumi_thing" "t" {
  name      = "thing"
  nonce     = "n"
  content   = "` + content + `"
  size_class = "small"
  tags      = { team = "infra" }
  lifecycle {
    ignore_changes = [tags["team"], size_class]
  }
}
`
	}
	p := newPulumiProject(t, config("one"))
	p.mustRun("apply", "-auto-approve", "-no-color")
	p.write(config("two"))
	out := p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "update", out, "Resources: 0 added, 1 changed, 0 destroyed.")
	recorded := p.objects("tpulumi_ignore_changes")[""].attrs["ignoreChanges"]
	if got, want := recorded, []any{"tags.team", "sizeClass"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Update was sent ignoreChanges %v, want %v", got, want)
	}
}

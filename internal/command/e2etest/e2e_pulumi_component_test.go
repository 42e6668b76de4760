package e2etest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/workdir"
)

// pulumiComponentConfig uses tpulumi's component Pair, whose Construct
// registers two Things (PREFIX-left and RIGHTNAME) as its children.
const pulumiComponentConfig = `
terraform {
  required_providers {
    tpulumi = { source = "pulumi/tpulumi", version = "~> 0.1" }
  }
}

provider "tpulumi" {
  root_dir = "CLOUD"
}

resource "tpulumi_pair" "p" {
  prefix        = "pp"
  left_content  = "LEFT"
  right_content = "right side"
  right_name    = "RIGHTNAME"
  EXTRA
}

output "left_length" {
  value = tpulumi_pair.p.left_length
}
`

func pairConfig(left, rightName, extra string) string {
	return strings.NewReplacer("LEFT", left, "RIGHTNAME", rightName, "EXTRA", extra).Replace(pulumiComponentConfig)
}

// TestE2EPulumiComponent drives a component through plan (children
// previewed), apply (children in the cloud), a plan with no changes, an
// update that updates one child and replaces the other, and destroy.
func TestE2EPulumiComponent(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, pairConfig("abcd", "pp-right", ""))

	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "first plan", out,
		"tpulumi_pair.p will be created", `"pp-left"`, `"pp-right"`, `left_length   = 4`, "(known after apply)",
		"Plan: 1 to add, 0 to change, 0 to destroy.")
	if len(p.objects("tpulumi_thing")) != 0 {
		t.Fatalf("plan created objects: %v", sortedNames(p.objects("tpulumi_thing")))
	}

	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "first apply", out, "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.", "left_length = 4")
	things := p.objects("tpulumi_thing")
	if got := strings.Join(sortedNames(things), " "); got != "pp-left pp-right" {
		t.Fatalf("cloud after apply holds %q, want the two children", got)
	}
	if things["pp-left"].attrs["content"] != "abcd" || things["pp-right"].attrs["content"] != "right side" {
		t.Errorf("children's contents: %v, %v", things["pp-left"].attrs["content"], things["pp-right"].attrs["content"])
	}
	p.assertChildRecords("after apply", things, "pp-left", "pp-right")
	out = p.mustRun("state", "list")
	if strings.TrimSpace(out) != "tpulumi_pair.p" {
		t.Errorf("state list shows %q, want the component alone", out)
	}
	out = p.mustRun("state", "show", "-no-color", "tpulumi_pair.p")
	clitest.AssertContains(t, "state show", out, "# Children of tpulumi_pair.p", `tpulumi:index:Thing "tpulumi_pair-`,
		`id      = "`+cloudObjectID(things["pp-left"])+`"`, `"content":"abcd"`, `left_api_key  = (sensitive value)`, `"apiKey":"(sensitive)"`)
	if strings.Contains(out, "key-pp-left") {
		t.Errorf("state show reveals the left child's secret apiKey:\n%s", out)
	}
	// The child records follow the component through state mv.
	p.mustRun("state", "mv", "tpulumi_pair.p", "tpulumi_pair.moved")
	out = p.mustRun("state", "show", "-no-color", "tpulumi_pair.moved")
	clitest.AssertContains(t, "state show after state mv", out, "# Children of tpulumi_pair.moved", `"pp-left"`)
	p.mustRun("state", "mv", "tpulumi_pair.moved", "tpulumi_pair.p")
	p.assertChildRecords("after moving back", things, "pp-left", "pp-right")
	p.expectNoChanges("plan after apply")

	// left_content updates the left child in place; a new right name
	// replaces the right child (name is replaceOnChanges).
	p.write(pairConfig("abcdef", "pp-other", ""))
	out = p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "update plan", out, "tpulumi_pair.p will be updated in-place", `"pp-other"`, "Plan: 0 to add, 1 to change, 0 to destroy.")
	p.mustRun("apply", "-auto-approve", "-no-color")
	things = p.objects("tpulumi_thing")
	if got := strings.Join(sortedNames(things), " "); got != "pp-left pp-other" {
		t.Fatalf("cloud after update holds %q, want pp-left and pp-other", got)
	}
	if got := things["pp-left"].attrs["revision"]; got != float64(2) {
		t.Errorf("left child revision = %v, want 2 (updated in place)", got)
	}
	p.assertChildRecords("after update", things, "pp-left", "pp-other")
	p.expectNoChanges("plan after update")

	// Drift: a child deleted behind Terrane's back is found by refresh and
	// created again.
	if err := os.Remove(things["pp-left"].path); err != nil {
		t.Fatal(err)
	}
	out = p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "plan after a child was deleted", out, "tpulumi_pair.p will be updated in-place", "Plan: 0 to add, 1 to change, 0 to destroy.")
	p.mustRun("apply", "-auto-approve", "-no-color")
	if got := strings.Join(sortedNames(p.objects("tpulumi_thing")), " "); got != "pp-left pp-other" {
		t.Fatalf("cloud after repairing the drift holds %q", got)
	}
	p.expectNoChanges("plan after repairing the drift")

	// A child the component no longer registers is deleted.
	p.write(pairConfig("abcdef", "pp-other", "drop_right = true"))
	p.mustRun("apply", "-auto-approve", "-no-color")
	if got := strings.Join(sortedNames(p.objects("tpulumi_thing")), " "); got != "pp-left" {
		t.Fatalf("cloud after dropping the right child holds %q", got)
	}
	p.expectNoChanges("plan after dropping a child")

	out = p.mustRun("destroy", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "destroy", out, "Destroy complete! Resources: 1 destroyed.")
	if left := sortedNames(p.objects("tpulumi_thing")); len(left) != 0 {
		t.Errorf("destroy left children in the cloud: %v", left)
	}
	if got := p.recordedInstances(); len(got) != 0 {
		t.Errorf("destroy left records %v", got)
	}
	p.assertChildRecords("after destroy", nil)
}

// assertChildRecords checks the component tpulumi_pair.p's child records
// name exactly the cloud objects named names, in registration order.
func (p *e2eProject) assertChildRecords(when string, cloud map[string]cloudObject, names ...string) {
	p.t.Helper()
	store, closeStore, err := workdir.OpenStore(p.dir, workdir.DefaultProject, workdir.DefaultWorkspace, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	defer closeStore()
	children, err := store.ComponentChildren(context.Background(), "tpulumi_pair.p")
	if err != nil {
		p.t.Fatal(err)
	}
	var got, want []string
	for _, child := range children {
		got = append(got, child.ID)
	}
	for _, name := range names {
		want = append(want, cloudObjectID(cloud[name]))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		p.t.Errorf("%s: child records hold IDs %v, want %v (the cloud's %v)", when, got, want, names)
	}
}

// cloudObjectID is a cloud object's ID: its file name.
func cloudObjectID(obj cloudObject) string {
	return strings.TrimSuffix(filepath.Base(obj.path), ".json")
}

// TestE2EPulumiComponentForeignChild: a component that registers a child
// of another package is refused by name at plan time.
func TestE2EPulumiComponentForeignChild(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, pairConfig("abcd", "pp-right", "foreign_child = true"))
	out, errOut, code := p.run("plan", "-no-color")
	if code == 0 {
		t.Fatalf("plan succeeded with a foreign child:\n%s", out)
	}
	clitest.AssertContains(t, "plan", errOut, "Component child from another package", "other:index:Widget", "tpulumi_pair", "belongs to the package other")
	if len(p.objects("tpulumi_thing")) != 0 {
		t.Errorf("the refused plan created objects")
	}
}

// TestE2EPulumiComponentPartialFailure: when a child fails to create, the
// children created before it are recorded with the component, so a later
// apply finishes the job and destroy removes them.
func TestE2EPulumiComponentPartialFailure(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, pairConfig("abcd", "pp-right", `right_fail = "create"`))
	out, errOut, code := p.run("apply", "-auto-approve", "-no-color")
	if code == 0 {
		t.Fatalf("apply succeeded although the right child fails:\n%s", out)
	}
	clitest.AssertContains(t, "failed apply", errOut, "create failure requested", "tpulumi_pair-")
	if got := strings.Join(sortedNames(p.objects("tpulumi_thing")), " "); got != "pp-left" {
		t.Fatalf("cloud after the failed apply holds %q, want the left child only", got)
	}
	if got := strings.Join(p.recordedInstances(), " "); got != "tpulumi_pair.p" {
		t.Fatalf("records after the failed apply: %q, want the component (holding its left child)", got)
	}
	p.assertChildRecords("after the failed apply", p.objects("tpulumi_thing"), "pp-left")

	p.write(pairConfig("abcd", "pp-right", ""))
	p.mustRun("apply", "-auto-approve", "-no-color")
	if got := strings.Join(sortedNames(p.objects("tpulumi_thing")), " "); got != "pp-left pp-right" {
		t.Fatalf("cloud after the repaired apply holds %q", got)
	}
	p.expectNoChanges("plan after the repaired apply")

	// A child already gone from the cloud does not stop the component's
	// destroy, even without a refresh.
	if err := os.Remove(p.objects("tpulumi_thing")["pp-right"].path); err != nil {
		t.Fatal(err)
	}
	p.mustRun("destroy", "-auto-approve", "-no-color", "-refresh=false")
	if left := sortedNames(p.objects("tpulumi_thing")); len(left) != 0 {
		t.Errorf("destroy left children in the cloud: %v", left)
	}
	p.assertChildRecords("after destroy", nil)
}

// TestE2EPulumiComponentMethod calls Pair's describe method as the
// provider function provider::tpulumi::pair_describe: unknown while the
// component is still to be created, the provider's answer after.
func TestE2EPulumiComponentMethod(t *testing.T) {
	t.Parallel()
	config := pairConfig("abcd", "pp-right", "") + `
output "described" {
  # The component holds a secret (left_api_key), so the result is sensitive.
  value = nonsensitive(provider::tpulumi::pair_describe(tpulumi_pair.p, " is a ").result)
}
`
	p := newPulumiProject(t, config)
	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "plan", out, "+ described   = (known after apply)")
	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "apply", out, `described = "tpulumi_pair-`, ` is a tpulumi:index:Pair"`)
	p.expectNoChanges("plan after apply")

	// state rm forgets the component and its child records (not the
	// objects, which stay in the cloud as with any resource).
	p.mustRun("state", "rm", "tpulumi_pair.p")
	p.assertChildRecords("after state rm", nil)
	if n := len(p.objects("tpulumi_thing")); n != 2 {
		t.Errorf("state rm changed the cloud: %d things", n)
	}
}

// TestE2EPulumiComponentUnknownInput: a component input that is unknown
// at plan time (another resource's ID) is previewed with its children's
// inputs unknown and constructed with the real value at apply.
func TestE2EPulumiComponentUnknownInput(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, `
terraform {
  required_providers {
    tpulumi = { source = "pulumi/tpulumi", version = "~> 0.1" }
  }
}

provider "tpulumi" {
  root_dir = "CLOUD"
}

resource "tpulumi_thing" "seed" {
  name  = "seed"
  nonce = "n-seed"
}

resource "tpulumi_pair" "p" {
  prefix       = tpulumi_thing.seed.id
  left_content = "abcd"
}
`)
	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "plan", out, "tpulumi_pair.p will be created", "+ inputs = (known after apply)", "Plan: 2 to add, 0 to change, 0 to destroy.")
	p.mustRun("apply", "-auto-approve", "-no-color")
	seedID := cloudObjectID(p.objects("tpulumi_thing")["seed"])
	if got := strings.Join(sortedNames(p.objects("tpulumi_thing")), " "); got != seedID+"-left "+seedID+"-right seed" {
		t.Fatalf("cloud holds %q, want the children named after the seed's ID %s", got, seedID)
	}
	p.expectNoChanges("plan after apply")
}

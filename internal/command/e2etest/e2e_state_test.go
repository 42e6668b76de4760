package e2etest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/testing/clitest"
	"google.golang.org/protobuf/proto"
)

// newStateProject is an empty project whose environment has env
// (NAME=VALUE entries) too.
func newStateProject(t *testing.T, env ...string) *e2eProject {
	t.Helper()
	p := newBareProject(t)
	p.addEnv(env...)
	return p
}

// list runs state list with args and returns the addresses it prints.
func (p *e2eProject) list(args ...string) []string {
	p.t.Helper()
	return strings.Split(strings.TrimSpace(p.mustRun(append([]string{"state", "list"}, args...)...)), "\n")
}

// stateCorpusDir holds state files Terraform wrote.
var stateCorpusDir, _ = filepath.Abs(filepath.Join("..", "..", "states", "statefile", "testdata"))

// corpusState is a state file from the statefile corpus.
func corpusState(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join(stateCorpusDir, name)
}

func readStateFile(t *testing.T, src []byte) *statefile.File {
	t.Helper()
	file, err := statefile.Read(bytes.NewReader(src))
	if err != nil {
		t.Fatalf("reading state: %s\n%s", err, src)
	}
	return file
}

// assertSameInstances checks that two states hold the same instances with
// the same content, comparing their record encodings.
func assertSameInstances(t *testing.T, want, got *states.State) {
	t.Helper()
	wantEntries, gotEntries := want.AllResourceInstances(), got.AllResourceInstances()
	if len(wantEntries) != len(gotEntries) {
		t.Fatalf("got %d instances, want %d", len(gotEntries), len(wantEntries))
	}
	for i, wantEntry := range wantEntries {
		gotEntry := gotEntries[i]
		wantRec, err := recordstore.InstanceToRecord(wantEntry.Addr, wantEntry.ProviderConfig, wantEntry.Instance)
		if err != nil {
			t.Fatal(err)
		}
		gotRec, err := recordstore.InstanceToRecord(gotEntry.Addr, gotEntry.ProviderConfig, gotEntry.Instance)
		if err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(wantRec, gotRec) {
			t.Errorf("instance %s differs:\n got %v\nwant %v", wantEntry.Addr, gotRec, wantRec)
		}
	}
}

func TestStatePushListPull(t *testing.T) {
	t.Parallel()
	testStatePushListPull(t)
}

// testStatePushListPull is TestStatePushListPull in a project whose environment has env too;
// it returns the project.
func testStatePushListPull(t *testing.T, env ...string) *e2eProject {
	p := newStateProject(t, env...)
	source := corpusState(t, "basic.tfstate")
	if out := p.mustRun("state", "push", source); out != "" {
		t.Errorf("push printed %q; OpenTofu's prints nothing", out)
	}

	t.Run("list everything in state order", func(t *testing.T) {
		got := p.list()
		if len(got) != 14 || got[0] != "data.terraform_remote_state.other" || got[13] != "module.single_child.terraform_data.inner" {
			t.Errorf("state list = %q", got)
		}
	})
	listCases := []struct {
		args []string
		want []string
	}{
		{[]string{"terraform_data.counted"}, []string{"terraform_data.counted[0]", "terraform_data.counted[1]", "terraform_data.counted[2]"}},
		{[]string{`terraform_data.each["b c"]`}, []string{`terraform_data.each["b c"]`}},
		{[]string{`module.child["two"]`}, []string{`module.child["two"].terraform_data.dependent`, `module.child["two"].terraform_data.inner`}},
		{[]string{"module.child"}, []string{`module.child["one"].terraform_data.dependent`, `module.child["one"].terraform_data.inner`,
			`module.child["two"].terraform_data.dependent`, `module.child["two"].terraform_data.inner`}},
		{[]string{"-id=7473f703-5685-9a4d-84a4-03df2fc1e806"}, []string{"terraform_data.counted[0]"}},
	}
	for _, tc := range listCases {
		t.Run("list "+strings.Join(tc.args, " "), func(t *testing.T) {
			if got := p.list(tc.args...); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}

	// As in OpenTofu, a resource address matches only the module instance
	// it names, and an address that matches nothing is an error.
	clitest.AssertContains(t, "list unkeyed module", p.mustFail("state", "list", "module.child.terraform_data.inner"), "Unknown resource")
	clitest.AssertContains(t, "list absent", p.mustFail("state", "list", "terraform_data.absent"), "Unknown resource", "contains no resource terraform_data.absent")

	t.Run("pull gives back the pushed document", func(t *testing.T) {
		src, err := os.ReadFile(source)
		if err != nil {
			t.Fatal(err)
		}
		want := readStateFile(t, src)
		got := readStateFile(t, []byte(p.mustRun("state", "pull")))
		if got.Lineage != want.Lineage {
			t.Errorf("lineage %q, want %q", got.Lineage, want.Lineage)
		}
		if got.Serial <= want.Serial {
			t.Errorf("serial %d, want more than the pushed %d", got.Serial, want.Serial)
		}
		assertSameInstances(t, want.State, got.State)
		if len(got.State.Outputs) != len(want.State.Outputs) || !got.State.Outputs["secret_out"].Sensitive {
			t.Errorf("outputs = %v", got.State.Outputs)
		}
		for name, output := range want.State.Outputs {
			if !output.Value.RawEquals(got.State.Outputs[name].Value) {
				t.Errorf("output %s = %#v, want %#v", name, got.State.Outputs[name].Value, output.Value)
			}
		}
	})
	return p
}

func TestStatePushRefusals(t *testing.T) {
	t.Parallel()
	testStatePushRefusals(t)
}

// testStatePushRefusals is TestStatePushRefusals in a project whose environment has env too;
// it returns the project.
func testStatePushRefusals(t *testing.T, env ...string) *e2eProject {
	p := newStateProject(t, env...)
	p.mustRun("state", "push", corpusState(t, "basic.tfstate"))
	other := corpusState(t, "deposed.tfstate")

	errOut := p.mustFail("state", "push", other)
	clitest.AssertContains(t, "lineage mismatch", errOut, "Failed to write the imported state", "over unrelated state with lineage")
	if got := p.list(); len(got) != 14 {
		t.Fatalf("a refused push changed the state: %q", got)
	}

	pulled := filepath.Join(p.dir, "pulled.tfstate")
	// OpenTofu writes a pushed state twice, moving its serial on each time.
	older := strings.Replace(p.mustRun("state", "pull"), `"serial":16`, `"serial":3`, 1)
	clitest.WriteFile(t, pulled, older)
	errOut = p.mustFail("state", "push", pulled)
	clitest.AssertContains(t, "lower serial", errOut, "cannot import state with serial 3 over newer state with serial 16")

	p.mustRun("state", "push", "-force", other)
	src, _ := os.ReadFile(other)
	got := readStateFile(t, []byte(p.mustRun("state", "pull")))
	assertSameInstances(t, readStateFile(t, src).State, got.State)
	if len(got.State.Outputs) != 0 {
		t.Errorf("outputs of the replaced state remain: %v", got.State.Outputs)
	}

	clitest.AssertContains(t, "missing file", p.mustFail("state", "push", "nope.tfstate"), "Failed to open the given state file")
	clitest.WriteFile(t, pulled, `{"version": 3, "serial": 1}`)
	clitest.AssertContains(t, "old format", p.mustFail("state", "push", pulled), "Failed to read source state")
	return p
}

func TestStatePushFromStdinIntoEmptyWorkspace(t *testing.T) {
	t.Parallel()
	p := newStateProject(t)
	src, err := os.ReadFile(corpusState(t, "deposed.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := p.runWithInput(string(src), "state", "push", "-"); code != 0 {
		t.Fatalf("push from stdin: %s", errOut)
	}
	got := readStateFile(t, []byte(p.mustRun("state", "pull")))
	assertSameInstances(t, readStateFile(t, src).State, got.State)
	deposed := 0
	for _, entry := range got.State.AllResourceInstances() {
		deposed += len(entry.Instance.Deposed)
	}
	if deposed == 0 {
		t.Error("deposed objects were lost")
	}
}

func TestStateMv(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		src, dst  string
		gone, new []string
	}{
		{"resource", "terraform_data.single", "terraform_data.renamed",
			[]string{"terraform_data.single"}, []string{"terraform_data.renamed"}},
		{"count to for_each", "terraform_data.counted[1]", `terraform_data.each["x"]`,
			[]string{"terraform_data.counted[1]"}, []string{`terraform_data.each["x"]`}},
		{"single to keyed", "terraform_data.secretive", "terraform_data.secretive[0]",
			[]string{"terraform_data.secretive"}, []string{"terraform_data.secretive[0]"}},
		{"module instance", `module.child["one"]`, "module.kid",
			[]string{`module.child["one"].terraform_data.inner`}, []string{"module.kid.terraform_data.inner", "module.kid.terraform_data.dependent"}},
		{"out of a module", "module.single_child.terraform_data.inner", "terraform_data.inner",
			[]string{"module.single_child.terraform_data.inner"}, []string{"terraform_data.inner"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newStateProject(t)
			p.mustRun("state", "push", corpusState(t, "basic.tfstate"))
			before := p.mustRun("state", "pull")
			dry := p.mustRun("state", "mv", "-dry-run", tc.src, tc.dst)
			clitest.AssertContains(t, "dry run", dry, "Would move")
			if after := p.mustRun("state", "pull"); after != before {
				t.Fatal("-dry-run changed the state")
			}
			out := p.mustRun("state", "mv", tc.src, tc.dst)
			clitest.AssertContains(t, "mv", out, "Successfully moved")
			listed := "\n" + strings.Join(p.list(), "\n") + "\n"
			for _, addr := range tc.gone {
				if strings.Contains(listed, "\n"+addr+"\n") {
					t.Errorf("%s still in state: %s", addr, listed)
				}
			}
			for _, addr := range tc.new {
				if !strings.Contains(listed, "\n"+addr+"\n") {
					t.Errorf("%s not in state: %s", addr, listed)
				}
			}
			if n := len(p.list()); n != 14 {
				t.Errorf("state has %d instances after the move, want 14", n)
			}
		})
	}
}

func TestStateMvObjectsKeepTheirContent(t *testing.T) {
	t.Parallel()
	testStateMvObjectsKeepTheirContent(t)
}

// testStateMvObjectsKeepTheirContent is TestStateMvObjectsKeepTheirContent in a project whose environment has env too;
// it returns the project.
func testStateMvObjectsKeepTheirContent(t *testing.T, env ...string) *e2eProject {
	p := newStateProject(t, env...)
	p.mustRun("state", "push", corpusState(t, "basic.tfstate"))
	before := readStateFile(t, []byte(p.mustRun("state", "pull")))
	p.mustRun("state", "mv", "terraform_data.secretive", "terraform_data.hidden")
	after := readStateFile(t, []byte(p.mustRun("state", "pull")))
	from, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.secretive")
	to, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.hidden")
	wantObj, gotObj := before.State.ResourceInstance(from).Current, after.State.ResourceInstance(to).Current
	if !bytes.Equal(wantObj.AttrsJSON, gotObj.AttrsJSON) || len(gotObj.SensitivePaths) != len(wantObj.SensitivePaths) || len(gotObj.SensitivePaths) == 0 {
		t.Errorf("moved object changed: %s %v", gotObj.AttrsJSON, gotObj.SensitivePaths)
	}
	return p
}

func TestStateMvErrors(t *testing.T) {
	t.Parallel()
	p := newStateProject(t)
	p.mustRun("state", "push", corpusState(t, "basic.tfstate"))
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"onto existing instance", []string{"terraform_data.counted[0]", "terraform_data.single"}, "there is already a resource instance at that address"},
		{"onto existing resource", []string{"terraform_data.counted", "terraform_data.each"}, "there is already a resource at that address"},
		{"missing source", []string{"terraform_data.nope", "terraform_data.other"}, "Cannot move terraform_data.nope: does not match anything"},
		{"module without its key", []string{"module.child", "module.kid"}, "Cannot move module.child: does not match anything"},
		{"different type", []string{"terraform_data.single", "null_resource.single"}, "resource types don't match"},
		{"managed to data", []string{"terraform_data.single", "data.terraform_data.single"}, "can be moved only to another managed resource address"},
		{"module to resource", []string{`module.child["one"]`, "terraform_data.x"}, "the target must also be a module"},
		{"resource into module", []string{"terraform_data.single", "module.single_child"}, "the target must also be a resource instance"},
		{"bad address", []string{"terraform_data", "x.y"}, "Resource specification must include a resource type and name"},
		{"one argument", []string{"terraform_data.single"}, "Exactly two arguments expected"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			errOut := p.mustFail(append([]string{"state", "mv"}, tc.args...)...)
			clitest.AssertContains(t, tc.name, errOut, tc.want)
		})
	}
	if n := len(p.list()); n != 14 {
		t.Errorf("failed moves changed the state: %d instances", n)
	}
}

func TestStateRm(t *testing.T) {
	t.Parallel()
	testStateRm(t)
}

// testStateRm is TestStateRm in a project whose environment has env too;
// it returns the project.
func testStateRm(t *testing.T, env ...string) *e2eProject {
	p := newStateProject(t, env...)
	p.mustRun("state", "push", corpusState(t, "basic.tfstate"))
	out := p.mustRun("state", "rm", "terraform_data.counted", `module.child["one"]`)
	clitest.AssertContains(t, "rm", out, "Removed terraform_data.counted[2]", `Removed module.child["one"].terraform_data.inner`, "Successfully removed 5 resource instance(s)")
	if n := len(p.list()); n != 9 {
		t.Errorf("%d instances left, want 9", n)
	}
	clitest.AssertContains(t, "rm missing", p.mustFail("state", "rm", "terraform_data.counted"), "No matching objects found")
	clitest.AssertContains(t, "rm nothing", p.mustFail("state", "rm"), "At least one address is required")
	p.mustRun("state", "rm", "-dry-run", "terraform_data.single")
	if n := len(p.list()); n != 9 {
		t.Errorf("-dry-run removed something: %d instances left", n)
	}
	return p
}

// TestStateRmResolvesOpenCreate leaves a create intent open, as a crash
// between the provider call and recording its answer does, and checks that
// pull refuses to export it and rm resolves it.
func TestStateRmResolvesOpenCreate(t *testing.T) {
	t.Parallel()
	p := newStateProject(t)
	p.mustRun("state", "push", corpusState(t, "basic.tfstate"))
	addr, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.crashed")
	provider, _ := addrs.ParseAbsProviderConfigStr(`provider["terraform.io/builtin/terraform"]`)
	store, closeStore := p.openRecords()
	_, err := store.Commit(context.Background(), []recordstore.InstanceChange{{
		Addr: addr, ProviderConfig: provider,
		Instance: &states.ResourceInstance{Intent: &states.Intent{Operation: states.IntentCreate, RunID: "01JRUN"}},
	}})
	closeStore()
	if err != nil {
		t.Fatal(err)
	}
	errOut := p.mustFail("state", "pull")
	clitest.AssertContains(t, "pull with open intent", errOut, "Unresolved provider calls", "terraform_data.crashed", "state rm")
	_, showErr, _ := p.runWithInput("", "state", "show", "terraform_data.crashed")
	clitest.AssertContains(t, "show open intent", showErr, "may have happened")
	p.mustRun("state", "rm", "terraform_data.crashed")
	got := readStateFile(t, []byte(p.mustRun("state", "pull")))
	if len(got.State.AllResourceInstances()) != 14 {
		t.Errorf("pull after rm has %d instances", len(got.State.AllResourceInstances()))
	}
}

func TestStateShow(t *testing.T) {
	t.Parallel()
	testStateShow(t)
}

// testStateShow is TestStateShow in a project whose environment has env too;
// it returns the project.
func testStateShow(t *testing.T, env ...string) *e2eProject {
	p := newStateProject(t, env...)
	p.mustRun("state", "push", corpusState(t, "basic.tfstate"))
	out := p.mustRun("state", "show", "-no-color", "terraform_data.secretive")
	clitest.AssertContains(t, "show", out, `resource "terraform_data" "secretive" {`, `public  = "visible"`, `private = (sensitive value)`)
	if strings.Contains(strings.Split(out, "output")[0], "hunter2") {
		t.Errorf("sensitive input shown:\n%s", out)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"terraform_data.counted"}, "No instance found for the given address"},
		{[]string{"terraform_data.nope"}, "No instance found for the given address"},
		{[]string{"module.child"}, `Error parsing instance address "module.child"`},
		{nil, "Exactly one argument expected"},
	}
	for _, tc := range cases {
		clitest.AssertContains(t, "show error", p.mustFail(append([]string{"state", "show"}, tc.args...)...), tc.want)
	}
	return p
}

// As OpenTofu's, state show shows the current object only.
func TestStateShowDeposed(t *testing.T) {
	t.Parallel()
	p := newStateProject(t)
	p.mustRun("state", "push", corpusState(t, "deposed.tfstate"))
	addr := p.list()[0]
	out := p.mustRun("state", "show", "-no-color", addr)
	clitest.AssertContains(t, "show deposed", out, "(tainted)")
	if strings.Contains(out, "(deposed object ") {
		t.Errorf("state show shows deposed objects:\n%s", out)
	}
}

func TestStateReplaceProvider(t *testing.T) {
	t.Parallel()
	p := newStateProject(t)
	p.mustRun("state", "push", corpusState(t, "basic.tfstate"))
	out, _, code := p.runWithInput("no\n", "state", "replace-provider", "terraform.io/builtin/terraform", "example.com/acme/terraform")
	if code != 0 {
		t.Fatalf("declining replace-provider exits %d; OpenTofu's exits 0", code)
	}
	clitest.AssertContains(t, "prompt", out, "Changing 11 resources", "Enter a value", "Cancelled replacing providers.")
	if strings.Contains(p.mustRun("state", "pull"), "example.com") {
		t.Fatal("declined replacement changed the state")
	}
	out = p.mustRun("state", "replace-provider", "-auto-approve", "terraform.io/builtin/terraform", "example.com/acme/terraform")
	clitest.AssertContains(t, "replace", out, "Successfully replaced provider for 11 resources.")
	pulled := p.mustRun("state", "pull")
	if strings.Contains(pulled, "builtin") || !strings.Contains(pulled, `provider[\"example.com/acme/terraform\"]`) {
		t.Errorf("providers not replaced:\n%s", pulled)
	}
	out = p.mustRun("state", "replace-provider", "-auto-approve", "hashicorp/aws", "example.com/acme/aws")
	clitest.AssertContains(t, "no match", out, "No matching resources found")
	clitest.AssertContains(t, "bad address", p.mustFail("state", "replace-provider", "not a provider", "x/y"), `Invalid "from" provider "not a provider"`)
}

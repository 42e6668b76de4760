package e2etest

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/clitest"
)

// sharedConfig has two independent resources and a way to make the
// provider hang while it changes one, so a run can be caught mid-call.
const sharedConfig = lifecycleHeader + `
variable "suffix" {
  type    = string
  default = ""
}

variable "fail" {
  type    = string
  default = null
}

resource "tpf_thing" "a" {
  name        = "a"
  description = "a${var.suffix}"
  fail        = var.fail
}

resource "tpf_thing" "b" {
  name        = "b"
  description = "b${var.suffix}"
}
`

// TestE2ETwoWorkingDirectoriesShareAStore runs terrane as two colleagues
// would: two working directories of one configuration, as on two machines,
// sharing one etcd cluster or one terrane serve. Applies on disjoint
// targets proceed at once; an apply of an address the other run is
// changing names that run and its host and process, and changes nothing
// there.
func TestE2ETwoWorkingDirectoriesShareAStore(t *testing.T) {
	t.Parallel()
	server := etcdtest.Start(t)
	stores := sharedStoreKinds(server, func(*testing.T) string {
		return "etcd://" + strings.TrimPrefix(server.Endpoint, "http://")
	})
	for _, kind := range stores {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			store := kind.start(t)
			first := newE2EProjectEnv(t, sharedConfig, store.Env...)
			second := newE2EProjectEnv(t, sharedConfig, store.Env...)
			second.cloud = first.cloud
			second.write(sharedConfig)
			testDisjointAppliesFromTwoDirectories(t, first, second)
			testConflictingApplyFromAnotherDirectory(t, first, second)
		})
	}
}

func testDisjointAppliesFromTwoDirectories(t *testing.T, first, second *e2eProject) {
	results := runInDirs(t,
		dirRun{first, []string{"apply", "-auto-approve", "-no-color", "-target=tpf_thing.a"}},
		dirRun{second, []string{"apply", "-auto-approve", "-no-color", "-target=tpf_thing.b"}})
	for _, r := range results {
		if r.code != 0 {
			t.Fatalf("terrane %s: exit %d\n%s\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
		}
	}
	for _, p := range []*e2eProject{first, second} {
		if got := strings.Join(p.recordedInstances(), " "); got != "tpf_thing.a tpf_thing.b" {
			t.Errorf("records seen from %s: %s", p.dir, got)
		}
	}
	if got := strings.Join(sortedNames(first.objects("tpf_thing")), " "); got != "a b" {
		t.Errorf("cloud after disjoint applies: %s", got)
	}
}

func testConflictingApplyFromAnotherDirectory(t *testing.T, first, second *e2eProject) {
	hanging := startInBackground(t, first, "apply", "-auto-approve", "-no-color", "-var=suffix=-one", "-var=fail=hang")
	clitest.WaitFor(t, "first apply", hanging.out, regexp.MustCompile(`tpf_thing.a: Modifying\.\.\.`))

	result := runInDirs(t, dirRun{second, []string{"apply", "-auto-approve", "-no-color", "-var=suffix=-two"}})[0]
	host, _ := os.Hostname()
	holder := fmt.Sprintf("(process %s:%d)", host, hanging.cmd.Process.Pid)
	if result.code != 1 {
		t.Errorf("an apply that left an address to another run: exit %d, want 1", result.code)
	}
	clitest.AssertContains(t, "conflicting apply", result.stderr, "Error: Another run is changing tpf_thing.a", holder, "began an update of tpf_thing.a", "This apply did not change it")
	if n := strings.Count(result.stderr, "Another run is changing tpf_thing.a"); n != 1 {
		t.Errorf("the conflict is reported %d times:\n%s", n, result.stderr)
	}
	clitest.AssertContains(t, "conflicting apply", result.stdout, "tpf_thing.b: Modifications complete")
	if got := first.objects("tpf_thing")["a"].attrs["description"]; got == "a-two" {
		t.Errorf("the conflicting apply changed tpf_thing.a")
	}

	if err := hanging.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = hanging.wait(t, "interrupted apply", 30*time.Second)
}

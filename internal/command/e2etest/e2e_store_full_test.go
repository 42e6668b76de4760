package e2etest

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states/errored"
	"github.com/terrane/terrane/internal/testing/clitest"
)

const storeFullConfig = lifecycleHeader + `
resource "tpf_thing" "n" {
  count = 80
  name  = "n-${count.index}"
}
`

var unrecordedEntry = regexp.MustCompile(`(tpf_thing\.n\[\d+\]) \(id = ([0-9a-f]+)\)`)

// TestE2EStoreRefusesWrites fills the store's disk in the middle of an
// apply: the apply process may no longer grow any file past the size the
// store's write-ahead log has reached (RLIMIT_FSIZE, so writes fail as they
// would on a full disk). Calls that finished after that must not be lost:
// the run prints each address and ID and writes them to errored.tfstate,
// the next run says the same and refuses to plan, and `terrane state push
// errored.tfstate` takes them in, after which the apply completes without
// creating anything twice.
func TestE2EStoreRefusesWrites(t *testing.T) {
	t.Parallel()
	var p *e2eProject
	var stderr string
	var kept [][]string
	for attempt := 0; attempt < 4 && len(kept) == 0; attempt++ {
		p = newE2EProject(t, storeFullConfig)
		stderr = applyUntilStoreFull(t, p)
		kept = unrecordedEntry.FindAllStringSubmatch(stderr, -1)
	}
	if len(kept) == 0 {
		t.Skipf("no provider call finished between the disk filling up and the apply stopping, in four attempts:\n%s", stderr)
	}
	printed := checkUnrecordedKept(t, p, stderr, kept, func(addr string) string {
		return "n-" + strings.TrimSuffix(strings.TrimPrefix(addr, "tpf_thing.n["), "]")
	})
	takeUnrecordedIn(t, p, printed)
	p.mustRun("apply", "-auto-approve")
	after := p.objects("tpf_thing")
	if len(after) != 80 {
		t.Errorf("the cloud holds %d objects after the apply completed, want 80", len(after))
	}
	for _, m := range kept {
		name := "n-" + strings.TrimSuffix(strings.TrimPrefix(m[1], "tpf_thing.n["), "]")
		if after[name].attrs["id"] != m[2] {
			t.Errorf("%s was created again (id %v, was %s)", m[1], after[name].attrs["id"], m[2])
		}
	}
	if records := p.recordedInstances(); len(records) != 80 {
		t.Errorf("%d records after the apply completed, want 80", len(records))
	}
}

// applyUntilStoreFull runs an apply and, once it has recorded a few
// results, forbids it to grow any file past the write-ahead log's size.
// It returns the apply's stderr.
func applyUntilStoreFull(t *testing.T, p *e2eProject) string {
	t.Helper()
	cmd := p.command("apply", "-auto-approve", "-no-color", "-parallelism=4")
	var out, errOut clitest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	wal := filepath.Join(p.dir, ".terrane", "state.db-wal")
	for {
		info, err := os.Stat(wal)
		// Big enough that errored.tfstate still fits under the limit.
		if err == nil && info.Size() >= 64<<10 && strings.Count(out.String(), "Creation complete") >= 5 {
			limit := &unix.Rlimit{Cur: uint64(info.Size()), Max: uint64(info.Size())}
			if err := unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_FSIZE, limit, nil); err != nil {
				t.Fatalf("limiting the apply's file size: %v", err)
			}
			break
		}
		select {
		case <-exited:
			return errOut.String()
		case <-time.After(2 * time.Millisecond):
		}
	}
	select {
	case <-exited:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("the apply did not stop once its store was full\n%s\n%s", out.String(), errOut.String())
	}
	return errOut.String()
}

// checkUnrecordedKept checks what a run that could not record the results
// kept (address and ID, as its errors print them) left: its errors say so
// and how to take them in, each ID is the one the cloud has (objectName
// gives an address's object name), and errored.tfstate (decrypted by
// readErroredFile when encrypted) holds exactly what was printed. It
// returns the printed entries, sorted.
func checkUnrecordedKept(t *testing.T, p *e2eProject, stderr string, kept [][]string, objectName func(addr string) string) []string {
	t.Helper()
	clitest.AssertContains(t, "the failed apply's errors", stderr, run.UnrecordedSummary, "terrane state push errored.tfstate")
	printed := uniqueSorted(kept, 0)
	cloud := p.objects("tpf_thing")
	for _, m := range kept {
		if id := cloud[objectName(m[1])].attrs["id"]; id != m[2] {
			t.Errorf("%s is printed with id %s, the cloud has %v", m[1], m[2], id)
		}
	}
	file := readErroredFile(t, p, filepath.Join(p.dir, errored.FileName))
	var inFile []string
	for _, e := range file.Entries() {
		inFile = append(inFile, e.String())
	}
	if strings.Join(inFile, "\n") != strings.Join(printed, "\n") {
		t.Errorf("errored.tfstate holds\n%s\nthe apply printed\n%s", strings.Join(inFile, "\n"), strings.Join(printed, "\n"))
	}
	return printed
}

// takeUnrecordedIn checks that the next plan says what the failed run said
// about the printed results and does nothing else, then takes them in with
// terrane state push errored.tfstate.
func takeUnrecordedIn(t *testing.T, p *e2eProject, printed []string) {
	t.Helper()
	_, planErr, code := p.run("plan", "-no-color")
	if code != 1 {
		t.Fatalf("plan with results not taken in: exit %d, want 1\n%s", code, planErr)
	}
	clitest.AssertContains(t, "the next plan's errors", planErr, append(printed, run.UnrecordedSummary, "terrane state push errored.tfstate")...)
	if strings.Contains(planErr, "Unfinished create") || strings.Contains(planErr, "terrane import") {
		t.Errorf("the next plan gives other advice than the failed apply:\n%s", planErr)
	}
	clitest.AssertContains(t, "state push errored.tfstate", p.mustRun("state", "push", "errored.tfstate"), printed...)
}

// uniqueSorted returns the distinct values of group in matches, sorted.
func uniqueSorted(matches [][]string, group int) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range matches {
		if !seen[m[group]] {
			seen[m[group]] = true
			out = append(out, m[group])
		}
	}
	sort.Strings(out)
	return out
}

package e2etest

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // the driver the store itself uses

	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/workdir"
)

const twoThings = lifecycleHeader + `
resource "tpf_thing" "a" {
  count = 2
  name  = "a-${count.index}"
}
`

// assertNoRemovalAdvice fails if a message suggests removing or emptying
// the state: the store is the only record of what Terrane manages.
func assertNoRemovalAdvice(t *testing.T, what, text string) {
	t.Helper()
	lower := strings.ToLower(text)
	for _, bad := range []string{"remove it", "delete it", "empty state", "start over", "rm .terrane", "rm -rf"} {
		if strings.Contains(lower, bad) {
			t.Errorf("%s suggests losing the state (%q):\n%s", what, bad, text)
		}
	}
}

// setUserVersion sets the schema version recorded in a state database.
func setUserVersion(t *testing.T, path string, version int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA user_version = " + strconv.Itoa(version)); err != nil {
		t.Fatal(err)
	}
}

func userVersion(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// backupInstances opens a backup copy of the store as a store of its own
// and lists its instances.
func backupInstances(t *testing.T, backup string) []string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	clitest.WriteFile(t, workdir.StatePath(dir), string(src))
	store, closeStore, err := workdir.OpenStore(dir, workdir.DefaultProject, workdir.DefaultWorkspace, nil)
	if err != nil {
		t.Fatalf("the backup %s does not open: %v", backup, err)
	}
	defer closeStore()
	snap, err := store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return sortedNames(snap.InstanceVersions)
}

// TestE2EStoreRecovery checks what Terrane says and keeps when its store
// is damaged, written by a newer version, of an older layout, or about to
// be replaced by a push: it never suggests removing the store, and it
// copies the store aside before changing its layout and before a push.
func TestE2EStoreRecovery(t *testing.T) {
	t.Parallel()
	t.Run("damaged", func(t *testing.T) {
		t.Parallel()
		p := newE2EProject(t, twoThings)
		p.mustRun("apply", "-auto-approve")
		damaged := strings.Repeat("not a database ", 400)
		clitest.WriteFile(t, workdir.StatePath(p.dir), damaged)
		_ = os.Remove(workdir.StatePath(p.dir) + "-wal")
		_ = os.Remove(workdir.StatePath(p.dir) + "-shm")
		for _, args := range [][]string{{"plan", "-no-color"}, {"state", "list"}} {
			_, errOut, code := p.run(args...)
			if code != 1 {
				t.Fatalf("terrane %s on a damaged store: exit %d, want 1", strings.Join(args, " "), code)
			}
			clitest.AssertContains(t, "advice for a damaged store", errOut, "Failed to open the state store", ".recover", filepath.Join(".terrane", "backups"), "terrane state push")
			assertNoRemovalAdvice(t, "advice for a damaged store", errOut)
		}
		if src, _ := os.ReadFile(workdir.StatePath(p.dir)); string(src) != damaged {
			t.Error("the damaged store was changed")
		}
	})
	t.Run("read-only", func(t *testing.T) {
		t.Parallel()
		p := newE2EProject(t, twoThings)
		p.mustRun("apply", "-auto-approve")
		before, err := os.ReadFile(workdir.StatePath(p.dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
			_, errOut, code := runOnReadOnly(t, filepath.Dir(workdir.StatePath(p.dir)), p, args...)
			if code != 1 {
				t.Fatalf("terrane %s on a read-only store: exit %d, want 1\n%s", strings.Join(args, " "), code, errOut)
			}
			clitest.AssertContains(t, "advice for a read-only store", errOut, "Failed to open the state store", "writable", "read-write")
			assertNoRemovalAdvice(t, "advice for a read-only store", errOut)
			if strings.Contains(errOut, "damaged") || strings.Contains(errOut, ".recover") {
				t.Errorf("a read-only store is treated as a damaged one:\n%s", errOut)
			}
		}
		if after, _ := os.ReadFile(workdir.StatePath(p.dir)); string(after) != string(before) {
			t.Error("the read-only store was changed")
		}
	})
	t.Run("newer schema", func(t *testing.T) {
		t.Parallel()
		p := newE2EProject(t, twoThings)
		p.mustRun("apply", "-auto-approve")
		setUserVersion(t, workdir.StatePath(p.dir), 99)
		_, errOut, code := p.run("plan", "-no-color")
		if code != 1 {
			t.Fatalf("plan on a store of a newer version: exit %d, want 1", code)
		}
		clitest.AssertContains(t, "advice for a newer store", errOut, "newer version of Terrane", "schema version 99")
		assertNoRemovalAdvice(t, "advice for a newer store", errOut)
		if got := userVersion(t, workdir.StatePath(p.dir)); got != 99 {
			t.Errorf("the newer store's schema version was changed to %d", got)
		}
	})
	t.Run("older layout", func(t *testing.T) {
		t.Parallel()
		p := newE2EProject(t, twoThings)
		p.mustRun("apply", "-auto-approve")
		setUserVersion(t, workdir.StatePath(p.dir), 0) // as stores written before versions were kept
		p.mustRun("state", "list")
		backups, _ := filepath.Glob(filepath.Join(workdir.BackupsDir(p.dir), "state-*-before-schema-1.db"))
		if len(backups) != 1 {
			t.Fatalf("backups before the layout change: %v, want one", backups)
		}
		if got := strings.Join(backupInstances(t, backups[0]), " "); got != "tpf_thing.a[0] tpf_thing.a[1]" {
			t.Errorf("the backup holds %q", got)
		}
		if got := userVersion(t, workdir.StatePath(p.dir)); got != 1 {
			t.Errorf("schema version after opening: %d, want 1", got)
		}
	})
	t.Run("push", func(t *testing.T) {
		t.Parallel()
		p := newE2EProject(t, twoThings)
		p.mustRun("apply", "-auto-approve")
		pulled := p.mustRun("state", "pull")
		if !strings.Contains(pulled, `"index_key":1,`) {
			t.Fatalf("the pulled state has no instance 1:\n%s", pulled)
		}
		clitest.WriteFile(t, filepath.Join(p.dir, "one.tfstate"), strings.Replace(pulled, `"index_key":1,`, `"index_key":7,`, 1))
		p.mustRun("state", "push", "-force", "one.tfstate")
		backups, _ := filepath.Glob(filepath.Join(workdir.BackupsDir(p.dir), "state-*-before-push.db"))
		if len(backups) != 1 {
			t.Fatalf("backups before the push: %v, want one", backups)
		}
		if got := strings.Join(backupInstances(t, backups[0]), " "); got != "tpf_thing.a[0] tpf_thing.a[1]" {
			t.Errorf("the backup holds %q, want the state before the push", got)
		}
		if got := strings.Join(p.recordedInstances(), " "); got != "tpf_thing.a[0] tpf_thing.a[7]" {
			t.Errorf("after the push the store holds %q", got)
		}
	})
}

// runOnReadOnly runs terrane in the project with the directory readOnly mounted
// read-only, in a mount namespace of its own (unshare -m, which needs
// root); the test is skipped where that is not possible.
func runOnReadOnly(t *testing.T, readOnly string, p *e2eProject, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	const script = `mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"`
	probe := `mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && touch "$0/.probe"`
	if out, err := exec.Command("unshare", "-m", "sh", "-c", probe, readOnly).CombinedOutput(); err == nil || !strings.Contains(string(out), "Read-only") {
		_ = os.Remove(filepath.Join(readOnly, ".probe"))
		t.Skipf("cannot mount a directory read-only here (unshare -m needs root): %v %s", err, out)
	}
	terrane := p.command(args...)
	cmd := exec.Command("unshare", append([]string{"-m", "sh", "-c", script, "sh", readOnly}, terrane.Args...)...)
	cmd.Dir, cmd.Env = terrane.Dir, terrane.Env
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exitErr, ok := err.(*exec.ExitError); ok {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

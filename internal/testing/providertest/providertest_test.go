package providertest

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"testing"
	"time"
)

const magicCookie = "TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"

// handshake is go-plugin's line: core version|app protocol|network|address|protocol.
var handshake = regexp.MustCompile(`^1\|([56])\|(unix|tcp)\|[^|]+\|grpc\|`)

func TestBuildProducesStartableProviders(t *testing.T) {
	mirror := Build(t)
	wantProtocol := map[string]string{"tpf": "6", "tpf5": "5", "tpsdk": "5", "tpraw": "6"}
	for _, typeName := range []string{"tpf", "tpf5", "tpsdk"} {
		if !slices.Contains(mirror.Types(), typeName) {
			t.Errorf("mirror lacks provider %s (has %v)", typeName, mirror.Types())
		}
	}
	for _, typeName := range mirror.Types() {
		t.Run(typeName, func(t *testing.T) {
			if got, want := mirror.Source(typeName), "registry.terraform.io/terrane/"+typeName; got != want {
				t.Errorf("Source = %q, want %q", got, want)
			}
			line := startAndReadHandshake(t, mirror.Executable(typeName))
			match := handshake.FindStringSubmatch(line)
			if match == nil {
				t.Fatalf("first stdout line %q is not a go-plugin handshake", line)
			}
			if want, ok := wantProtocol[typeName]; ok && match[1] != want {
				t.Errorf("protocol version %s, want %s", match[1], want)
			}
		})
	}
}

func TestBuildIsCachedAcrossCalls(t *testing.T) {
	first := Build(t)
	info, err := os.Stat(first.Executable("tpf"))
	if err != nil {
		t.Fatal(err)
	}
	// A second build of the same sources (as another test binary would
	// do) must reuse the cached binaries rather than compile again.
	again, err := build()
	if err != nil {
		t.Fatal(err)
	}
	if again.Dir != first.Dir {
		t.Fatalf("same sources built into a different mirror: %s vs %s", again.Dir, first.Dir)
	}
	info2, err := os.Stat(again.Executable("tpf"))
	if err != nil || !info2.ModTime().Equal(info.ModTime()) {
		t.Errorf("cached binary was rebuilt or lost: %v", err)
	}
}

func startAndReadHandshake(t *testing.T, executable string) string {
	t.Helper()
	cmd := exec.Command(executable)
	cmd.Env = append(os.Environ(), magicCookie)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", executable, err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	lines := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		scanner.Scan()
		lines <- scanner.Text()
	}()
	select {
	case line := <-lines:
		return line
	case <-time.After(30 * time.Second):
		t.Fatalf("%s printed no handshake within 30s", executable)
		return ""
	}
}

func TestPruneOldMirrorsKeepsNewest(t *testing.T) {
	root := t.TempDir()
	names := []string{"a", "b", "c", ".build-x"}
	for i, name := range names {
		dir := root + "/" + name
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		stamp := time.Now().Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(dir, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	pruneOldMirrors(root, 1)
	for name, want := range map[string]bool{"a": false, "b": false, "c": true, ".build-x": true} {
		_, err := os.Stat(root + "/" + name)
		if got := err == nil; got != want {
			t.Errorf("%s kept = %v, want %v", name, got, want)
		}
	}
}

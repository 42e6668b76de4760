package benchenv

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/terrane/terrane/internal/testing/procstat"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// Env is the terrane binary and the provider mirror it installs from.
type Env struct {
	// Binary is the terrane executable: TERRANE_BENCH_BINARY (or its older
	// name TERRANE_SCALE_BINARY) when set, else one built from this module.
	Binary string
	Mirror *providertest.Mirror
	// CLIConfig is a CLI configuration file whose provider_installation
	// block installs from Mirror only. Terraform reads the same syntax.
	CLIConfig string
	// Vars is the environment terrane commands run with.
	Vars []string
}

var (
	once   sync.Once
	shared Env
	err    error
)

// Get returns the run's environment, building it on first use.
func Get(b testing.TB) Env {
	mirror := providertest.Build(b)
	once.Do(func() { shared, err = newEnv(mirror) })
	if err != nil {
		b.Fatal(err)
	}
	return shared
}

func newEnv(mirror *providertest.Mirror) (Env, error) {
	dir, err := os.MkdirTemp("", "terrane-bench-")
	if err != nil {
		return Env{}, err
	}
	binary := os.Getenv("TERRANE_BENCH_BINARY")
	if binary == "" {
		binary = os.Getenv("TERRANE_SCALE_BINARY")
	}
	if binary == "" {
		binary = filepath.Join(dir, "terrane")
		build := exec.Command("go", "build", "-o", binary, "github.com/terrane/terrane/cmd/terrane")
		if out, err := build.CombinedOutput(); err != nil {
			return Env{}, fmt.Errorf("building terrane: %v\n%s", err, out)
		}
	}
	rc := filepath.Join(dir, "terraformrc")
	config := "provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror.Dir + "\"\n  }\n}\n"
	if err := os.WriteFile(rc, []byte(config), 0o644); err != nil {
		return Env{}, err
	}
	return Env{Binary: binary, Mirror: mirror, CLIConfig: rc, Vars: append(os.Environ(),
		"TERRANE_CLI_CONFIG_FILE="+rc, "TF_PLUGIN_CACHE_DIR=", "TERRANE_SCHEMA_CACHE_DIR="+filepath.Join(dir, "schemas"),
		"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")}, nil
}

// Run runs binary with args in dir under the environment vars and measures
// it; see procstat.Usage for what is measured. The command's combined
// output is returned for checks and diagnostics; a failed command's error
// carries its last lines.
func Run(binary, dir string, vars []string, args ...string) (procstat.Usage, string, error) {
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = vars
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	u, waitErr := procstat.Run(cmd)
	if waitErr != nil {
		return u, out.String(), fmt.Errorf("%s %s: %w\n%s", filepath.Base(binary), strings.Join(args, " "), waitErr, Tail(out.String(), 4000))
	}
	return u, out.String(), nil
}

// Tail is the last n bytes of s, marked as cut when it is longer.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

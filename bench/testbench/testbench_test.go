package testbench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/procstat"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// tool is one way of running the suite.
type tool struct {
	name   string
	binary string
	env    []string
	args   []string
}

// BenchmarkTest20Runs is one file of 20 runs against a fast provider: what
// the tools themselves cost.
func BenchmarkTest20Runs(b *testing.B) {
	benchmarkSuite(b, map[string]string{"tests/suite.tftest.hcl": testFile()})
}

// BenchmarkTest20RunsSlowApplies is four files of five runs whose applies
// take three seconds each, as a remote API makes them wait: what running
// independent runs side by side saves.
func BenchmarkTest20RunsSlowApplies(b *testing.B) {
	files := map[string]string{}
	for i := 1; i <= 4; i++ {
		files[fmt.Sprintf("tests/slow%d.tftest.hcl", i)] = slowTestFile(i)
	}
	benchmarkSuite(b, files)
}

func benchmarkSuite(b *testing.B, files map[string]string) {
	work := b.TempDir()
	mirror := providertest.Build(b)
	rc := filepath.Join(work, "terraformrc")
	writeFile(b, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirror.Dir+"\"\n  }\n}\n")
	base := append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_PLUGIN_CACHE_DIR=")
	terrane := terraneBinary(b, work)
	terraneEnv := append(append([]string{}, base...), "TERRANE_CLI_CONFIG_FILE="+rc, "TERRANE_SCHEMA_CACHE_DIR="+filepath.Join(work, "schemas"))
	tools := []tool{
		{name: "terrane test -parallelism=1", binary: terrane, env: terraneEnv, args: []string{"test", "-no-color", "-parallelism=1"}},
		{name: "terrane test (-parallelism=4)", binary: terrane, env: terraneEnv, args: []string{"test", "-no-color"}},
		{name: "terrane test -parallelism=8", binary: terrane, env: terraneEnv, args: []string{"test", "-no-color", "-parallelism=8"}},
	}
	if terraform, err := exec.LookPath("terraform"); err == nil {
		tools = append([]tool{{name: "terraform test", binary: terraform,
			env: append(append([]string{}, base...), "TF_CLI_CONFIG_FILE="+rc), args: []string{"test", "-no-color"}}}, tools...)
	}
	fmt.Printf("\n%s\n\n| command | run blocks | wall s | CPU s | own peak MiB | largest provider peak MiB | process tree peak MiB |\n| --- | --- | --- | --- | --- | --- | --- |\n", b.Name())
	for _, t := range tools {
		b.Run(strings.ReplaceAll(t.name, " ", "_"), func(b *testing.B) {
			project := newProject(b, filepath.Join(work, strings.ReplaceAll(t.name, " ", "_")), files)
			if out, err := run(t.binary, project, t.env, "init", "-no-color"); err != nil {
				b.Fatalf("%s init: %v\n%s", t.binary, err, out)
			}
			for i := 0; i < b.N; i++ {
				measureTool(b, t, project)
			}
		})
	}
}

// measureTool runs the suite once with t and prints its row.
func measureTool(b *testing.B, t tool, project string) {
	cmd := exec.Command(t.binary, t.args...)
	cmd.Dir, cmd.Env = project, t.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	u, err := procstat.Run(cmd)
	if err != nil || !strings.Contains(out.String(), fmt.Sprintf("Success! %d passed, 0 failed.", runBlocks)) {
		b.Fatalf("%s: %v\n%s", t.name, err, out.String())
	}
	fmt.Printf("| `%s` | %d | %.2f | %.2f | %.0f | %.0f | %.0f |\n", t.name, runBlocks, u.Wall.Seconds(), u.CPU.Seconds(),
		float64(u.RootPeakKiB)/1024, float64(u.ChildPeakKiB)/1024, float64(u.TreePeakKiB)/1024)
}

// newProject writes the module, its setup module and the test files into
// dir, with a cloud directory of its own for the provider.
func newProject(b *testing.B, dir string, files map[string]string) string {
	cloud := filepath.Join(dir, "cloud")
	if err := os.MkdirAll(cloud, 0o755); err != nil {
		b.Fatal(err)
	}
	writeFile(b, filepath.Join(dir, "main.tf"), strings.ReplaceAll(moduleTF, "CLOUD", cloud))
	writeFile(b, filepath.Join(dir, "setup", "main.tf"), strings.ReplaceAll(setupTF, "CLOUD", cloud))
	for name, content := range files {
		writeFile(b, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
	return dir
}

func terraneBinary(b *testing.B, work string) string {
	if binary := os.Getenv("TERRANE_TESTBENCH_BINARY"); binary != "" {
		return binary
	}
	binary := filepath.Join(work, "terrane")
	build := exec.Command("go", "build", "-o", binary, "github.com/terrane/terrane/cmd/terrane")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building terrane: %v\n%s", err, out)
	}
	return binary
}

func run(binary, dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command(binary, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func writeFile(b *testing.B, path, content string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
}

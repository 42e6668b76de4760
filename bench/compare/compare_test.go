package compare

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/terrane/terrane/bench/benchenv"
	"github.com/terrane/terrane/internal/testing/procstat"
)

// tool is one engine under measurement.
type tool struct {
	name   string
	binary string
	vars   []string
}

// step is one measured command of the cycle each tool runs.
type step struct {
	name string
	args []string
	// want is text the command's output must contain.
	want string
}

var cycle = []step{
	{name: "apply", args: []string{"apply", "-auto-approve", "-no-color", "-input=false"}, want: "Apply complete!"},
	{name: "plan", args: []string{"plan", "-no-color", "-input=false"}, want: "No changes."},
	{name: "destroy", args: []string{"destroy", "-auto-approve", "-no-color", "-input=false"}, want: "Destroy complete!"},
}

// BenchmarkCompare runs the cycle at every size in TERRANE_COMPARE_SIZES
// with Terrane and with terraform and prints one table row per step.
func BenchmarkCompare(b *testing.B) {
	terraform := terraformBinary(b)
	env := benchenv.Get(b)
	tools := []tool{
		{name: "terrane", binary: env.Binary, vars: env.Vars},
		{name: "terraform", binary: terraform, vars: append(os.Environ(),
			"TF_CLI_CONFIG_FILE="+env.CLIConfig, "TF_PLUGIN_CACHE_DIR=", "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")},
	}
	fmt.Print(tableHeader)
	for _, n := range sizes(b) {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for range b.N {
				runCycle(b, tools, n)
			}
		})
	}
}

const tableHeader = `
| instances | step | wall s Terrane | wall s Terraform | × | engine CPU s Terrane | engine CPU s Terraform | × | provider CPU s Terrane | provider CPU s Terraform | engine peak MiB Terrane | engine peak MiB Terraform | × | largest provider peak MiB Terrane | largest provider peak MiB Terraform | load average |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
`

// runCycle initialises one project per tool, then runs each step with
// every tool in turn before the next step.
func runCycle(b *testing.B, tools []tool, n int) {
	projects := make([]string, len(tools))
	for i, t := range tools {
		projects[i] = filepath.Join(b.TempDir(), t.name)
		if err := writeConfig(projects[i], filepath.Join(b.TempDir(), "cloud"), n); err != nil {
			b.Fatal(err)
		}
		if _, out, err := benchenv.Run(t.binary, projects[i], t.vars, "init", "-no-color", "-input=false"); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
	}
	for _, s := range cycle {
		usages := make([]procstat.Usage, len(tools))
		loadBefore := loadAverage()
		for i, t := range tools {
			vars := t.vars
			if dir := os.Getenv("TERRANE_COMPARE_PROFILES"); dir != "" && t.name == "terrane" {
				stem := filepath.Join(dir, fmt.Sprintf("%d-%s", n, s.name))
				vars = append(vars[:len(vars):len(vars)], "TERRANE_CPUPROFILE="+stem+".cpu.pprof", "TERRANE_MEMPROFILE_PEAK="+stem+".peak.pprof")
			}
			u, out, err := benchenv.Run(t.binary, projects[i], vars, s.args...)
			if err != nil {
				b.Fatal(err)
			}
			if !strings.Contains(out, s.want) {
				b.Fatalf("%s %s at %d instances: output lacks %q:\n%s", t.name, s.name, n, s.want, benchenv.Tail(out, 4000))
			}
			usages[i] = u
		}
		report(b, n, s.name, usages[0], usages[1], loadBefore+" → "+loadAverage())
	}
}

// report prints one step's row and adds its figures to the benchmark's
// metrics. Ratios are Terraform's figure divided by Terrane's.
func report(b *testing.B, n int, step string, terrane, terraform procstat.Usage, load string) {
	engineCPU := func(u procstat.Usage) float64 { return (u.CPU - u.ChildCPU).Seconds() }
	mib := func(kib int64) float64 { return float64(kib) / 1024 }
	b.ReportMetric(terrane.Wall.Seconds(), step+"-terrane-s")
	b.ReportMetric(terraform.Wall.Seconds(), step+"-terraform-s")
	b.ReportMetric(mib(terrane.RootPeakKiB), step+"-terrane-MiB")
	b.ReportMetric(mib(terraform.RootPeakKiB), step+"-terraform-MiB")
	fmt.Printf("| %d | %s | %.2f | %.2f | %s | %.2f | %.2f | %s | %.2f | %.2f | %.0f | %.0f | %s | %.0f | %.0f | %s |\n",
		n, step,
		terrane.Wall.Seconds(), terraform.Wall.Seconds(), ratio(terraform.Wall.Seconds(), terrane.Wall.Seconds()),
		engineCPU(terrane), engineCPU(terraform), ratio(engineCPU(terraform), engineCPU(terrane)),
		terrane.ChildCPU.Seconds(), terraform.ChildCPU.Seconds(),
		mib(terrane.RootPeakKiB), mib(terraform.RootPeakKiB), ratio(mib(terraform.RootPeakKiB), mib(terrane.RootPeakKiB)),
		mib(terrane.ChildPeakKiB), mib(terraform.ChildPeakKiB), load)
}

func ratio(a, b float64) string {
	if b <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f×", a/b)
}

// loadAverage is the machine's one-minute load average.
func loadAverage() string {
	src, err := os.ReadFile("/proc/loadavg")
	if fields := strings.Fields(string(src)); err == nil && len(fields) > 0 {
		return fields[0]
	}
	return "?"
}

// terraformBinary is TERRANE_COMPARE_TERRAFORM, or terraform on PATH; the
// benchmark is skipped without one.
func terraformBinary(b *testing.B) string {
	if path := os.Getenv("TERRANE_COMPARE_TERRAFORM"); path != "" {
		return path
	}
	path, err := exec.LookPath("terraform")
	if err != nil {
		b.Skip("terraform is not installed: nothing to compare with")
	}
	return path
}

func sizes(b *testing.B) []int {
	spec := os.Getenv("TERRANE_COMPARE_SIZES")
	if spec == "" {
		return []int{1000, 2000, 5000}
	}
	var out []int
	for _, field := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n < 2 {
			b.Fatalf("TERRANE_COMPARE_SIZES=%q: %q is not an instance count of at least 2", spec, field)
		}
		out = append(out, n)
	}
	return out
}

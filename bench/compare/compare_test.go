package compare

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
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
	tools := []tool{{name: "terrane", binary: env.Binary, vars: env.Vars}}
	if terraform != "" {
		tools = append(tools, tool{name: "terraform", binary: terraform, vars: append(os.Environ(),
			"TF_CLI_CONFIG_FILE="+env.CLIConfig, "TF_PLUGIN_CACHE_DIR=", "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")})
	}
	fmt.Print(tableHeader)
	for _, n := range benchenv.Sizes(b, "TERRANE_COMPARE_SIZES", 1000, 2000, 5000) {
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
		var terraform *procstat.Usage
		if len(usages) > 1 {
			terraform = &usages[1]
		}
		report(b, n, s.name, usages[0], terraform, loadBefore+" → "+loadAverage())
	}
}

// report prints one step's row and adds its figures to the benchmark's
// metrics. Ratios are Terraform's figure divided by Terrane's; Terraform's
// columns are dashes when only Terrane ran.
func report(b *testing.B, n int, step string, terrane procstat.Usage, terraform *procstat.Usage, load string) {
	engineCPU := func(u procstat.Usage) float64 { return (u.CPU - u.ChildCPU).Seconds() }
	mib := func(kib int64) float64 { return float64(kib) / 1024 }
	b.ReportMetric(terrane.Wall.Seconds(), step+"-terrane-s")
	b.ReportMetric(mib(terrane.RootPeakKiB), step+"-terrane-MiB")
	row := []figure{
		{terrane.Wall.Seconds(), "%.2f"}, {-1, ""}, {-1, ""},
		{engineCPU(terrane), "%.2f"}, {-1, ""}, {-1, ""},
		{terrane.ChildCPU.Seconds(), "%.2f"}, {-1, ""},
		{mib(terrane.RootPeakKiB), "%.0f"}, {-1, ""}, {-1, ""},
		{mib(terrane.ChildPeakKiB), "%.0f"}, {-1, ""},
	}
	if terraform != nil {
		b.ReportMetric(terraform.Wall.Seconds(), step+"-terraform-s")
		b.ReportMetric(mib(terraform.RootPeakKiB), step+"-terraform-MiB")
		row[1], row[2] = figure{terraform.Wall.Seconds(), "%.2f"}, figure{terraform.Wall.Seconds() / terrane.Wall.Seconds(), "%.1f×"}
		row[4], row[5] = figure{engineCPU(*terraform), "%.2f"}, figure{engineCPU(*terraform) / engineCPU(terrane), "%.1f×"}
		row[7] = figure{terraform.ChildCPU.Seconds(), "%.2f"}
		row[9], row[10] = figure{mib(terraform.RootPeakKiB), "%.0f"}, figure{mib(terraform.RootPeakKiB) / mib(terrane.RootPeakKiB), "%.1f×"}
		row[12] = figure{mib(terraform.ChildPeakKiB), "%.0f"}
	}
	fmt.Printf("| %d | %s |", n, step)
	for _, f := range row {
		fmt.Printf(" %s |", f)
	}
	fmt.Printf(" %s |\n", load)
}

// figure is one table cell: a number and its format, or a dash when the
// number is negative (not measured) or not finite.
type figure struct {
	v      float64
	format string
}

func (f figure) String() string {
	if f.v < 0 || math.IsInf(f.v, 0) || math.IsNaN(f.v) {
		return "—"
	}
	return fmt.Sprintf(f.format, f.v)
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
// benchmark is skipped without one. TERRANE_COMPARE_TERRAFORM=off measures
// Terrane alone (sizes Terraform would take hours over), and returns "".
func terraformBinary(b *testing.B) string {
	switch path := os.Getenv("TERRANE_COMPARE_TERRAFORM"); path {
	case "off":
		return ""
	case "":
	default:
		return path
	}
	path, err := exec.LookPath("terraform")
	if err != nil {
		b.Skip("terraform is not installed: nothing to compare with")
	}
	return path
}

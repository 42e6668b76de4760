package scale

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/bench/benchenv"
)

// BenchmarkScale runs every case on every shape at each size in
// TERRANE_SCALE_SIZES (default 1000) and reports, per case, Terrane's wall
// time, the floor's, their ratio, CPU time and peak memory. Each iteration
// is a whole apply → plan → change → destroy cycle; run with -benchtime 1x.
func BenchmarkScale(b *testing.B) {
	sizes := benchenv.Sizes(b, "TERRANE_SCALE_SIZES", 1000)
	for _, s := range selectedShapes(b) {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/n=%d", s.name, n), func(b *testing.B) {
				for range b.N {
					runCycle(b, s, n)
				}
			})
		}
	}
}

// scaleCase is one measured terrane command and its floor.
type scaleCase struct {
	name  string
	args  []string
	floor func(*floor, context.Context) (time.Duration, error)
	// wantOutput makes the case fail unless terrane's output contains it
	// (a plan with no changes, or with exactly one).
	wantOutput string
}

const oneChange = "Plan: 0 to add, 1 to change, 0 to destroy"

var cases = []scaleCase{
	{name: "apply", args: []string{"apply", "-auto-approve", "-no-color"},
		floor: (*floor).applyFromEmpty},
	{name: "plan-refresh=false", args: []string{"plan", "-refresh=false", "-no-color"}, wantOutput: noChanges,
		floor: func(f *floor, ctx context.Context) (time.Duration, error) { return f.planNoChanges(ctx, false) }},
	{name: "plan", args: []string{"plan", "-no-color"}, wantOutput: noChanges,
		floor: func(f *floor, ctx context.Context) (time.Duration, error) { return f.planNoChanges(ctx, true) }},
	{name: "plan-one-change", args: []string{"plan", "-refresh=false", "-no-color", "-var", "first_size=2"}, wantOutput: oneChange,
		floor: (*floor).planOneChange},
	{name: "change-one", args: []string{"apply", "-auto-approve", "-refresh=false", "-no-color", "-var", "first_size=2"},
		floor: (*floor).changeOne},
	{name: "destroy", args: []string{"destroy", "-auto-approve", "-no-color", "-var", "first_size=2"},
		floor: (*floor).destroy},
}

func runCycle(b *testing.B, s shape, n int) {
	env := benchenv.Get(b)
	project := filepath.Join(b.TempDir(), "project")
	cloud := b.TempDir()
	if err := s.write(project, cloud, n); err != nil {
		b.Fatal(err)
	}
	if _, out, err := runMeasured(env.Binary, project, env.Vars, "init", "-no-color"); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	fl, err := newFloor(env.Mirror.Executable("tpsdk"), env.Mirror.Source("tpsdk"), b.TempDir(), s, n)
	if err != nil {
		b.Fatal(err)
	}
	count := s.instanceCount(n)
	for _, c := range cases {
		vars := env.Vars
		if dir := os.Getenv("TERRANE_SCALE_PROFILES"); dir != "" {
			stem := filepath.Join(dir, fmt.Sprintf("%s-%d-%s", s.name, count, c.name))
			vars = append(vars[:len(vars):len(vars)], "TERRANE_CPUPROFILE="+stem+".cpu.pprof", "TERRANE_MEMPROFILE="+stem+".mem.pprof")
		}
		u, out, err := runMeasured(env.Binary, project, vars, c.args...)
		if err != nil {
			b.Fatal(err)
		}
		if c.wantOutput != "" && !strings.Contains(out, c.wantOutput) {
			b.Fatalf("%s: output lacks %q:\n%s", c.name, c.wantOutput, tail(out, 4000))
		}
		var floorTime time.Duration
		if floorsWanted() {
			if floorTime, err = c.floor(fl, b.Context()); err != nil {
				b.Fatalf("floor of %s: %v", c.name, err)
			}
		}
		report(b, s, count, c.name, u, floorTime)
		if c.name == "plan" && count <= schemaCheckMaxInstances {
			calls, err := checkSchemaCached(env.Binary, project, env.Vars)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Printf("schema cache: %s, %d instances, second no-change plan sent %v\n", s.name, count, calls)
		}
	}
}

// report adds one case's figures to the benchmark's metrics and prints
// them as a row of bench/README.md's table.
func report(b *testing.B, s shape, count int, caseName string, u usage, floorTime time.Duration) {
	terraneCPU := u.cpu - u.providerCPU
	b.ReportMetric(u.wall.Seconds(), caseName+"-s")
	b.ReportMetric(float64(u.terranePeakKiB)/1024, caseName+"-terrane-MiB")
	floorCol, ratioCol := "—", "—"
	if floorTime > 0 {
		ratio := u.wall.Seconds() / floorTime.Seconds()
		b.ReportMetric(floorTime.Seconds(), caseName+"-floor-s")
		b.ReportMetric(ratio, caseName+"-ratio")
		floorCol, ratioCol = fmt.Sprintf("%.2f", floorTime.Seconds()), fmt.Sprintf("%.2f×", ratio)
	}
	fmt.Printf("| %s | %d | %s | %.2f | %s | %s | %.2f | %.2f | %.0f | %.0f |\n",
		s.name, count, caseName, u.wall.Seconds(), floorCol, ratioCol,
		terraneCPU.Seconds(), u.providerCPU.Seconds(),
		float64(u.terranePeakKiB)/1024, float64(u.providerPeakKiB)/1024)
}

// floorsWanted is false when TERRANE_SCALE_FLOOR=off: only Terrane is
// measured, which halves the time of a run at sizes whose floor is known.
func floorsWanted() bool {
	return os.Getenv("TERRANE_SCALE_FLOOR") != "off"
}

// selectedShapes are the shapes named in TERRANE_SCALE_SHAPES, or all.
func selectedShapes(b *testing.B) []shape {
	spec := os.Getenv("TERRANE_SCALE_SHAPES")
	if spec == "" {
		return shapes
	}
	var out []shape
	for _, name := range strings.Split(spec, ",") {
		found := false
		for _, s := range shapes {
			if s.name == strings.TrimSpace(name) {
				out, found = append(out, s), true
			}
		}
		if !found {
			b.Fatalf("TERRANE_SCALE_SHAPES: no shape %q (have independent, fanout, modules)", name)
		}
	}
	return out
}

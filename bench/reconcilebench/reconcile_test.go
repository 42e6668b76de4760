package reconcilebench

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/command"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/reconcile"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/testing/procstat"
	"github.com/terrane/terrane/internal/testing/providertest"
	"github.com/terrane/terrane/internal/workdir"
)

// instances is the workspace size: TERRANE_BENCH_INSTANCES, else 1,000.
func instances(b *testing.B) int {
	if n, err := strconv.Atoi(os.Getenv("TERRANE_BENCH_INSTANCES")); err == nil && n > 0 {
		return n
	}
	return 1000
}

// shared workspaces, by size, so the benchmarks of one run apply each
// size once: applying 10,000 objects costs more than measuring them.
var (
	sharedMu   sync.Mutex
	sharedDirs = map[int]string{}
	sharedRoot string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedRoot != "" {
		_ = os.RemoveAll(sharedRoot)
	}
	os.Exit(code)
}

// workspace returns a project holding count applied tpf objects, made once
// per size, and its store.
func workspace(b *testing.B, count int) (string, *resourceservice.Service) {
	b.Helper()
	mirror := providertest.Build(b)
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sharedRoot == "" {
		root, err := os.MkdirTemp("", "reconcilebench-")
		if err != nil {
			b.Fatal(err)
		}
		sharedRoot = root
		rc := filepath.Join(root, "terraformrc")
		write(b, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirror.Dir+"\"\n  }\n}\n")
		os.Setenv("TERRANE_CLI_CONFIG_FILE", rc)
		os.Setenv("TF_PLUGIN_CACHE_DIR", "")
		os.Setenv("TERRANE_SCHEMA_CACHE_DIR", filepath.Join(root, "schemas"))
	}
	dir, made := sharedDirs[count]
	if !made {
		work := filepath.Join(sharedRoot, strconv.Itoa(count))
		dir = filepath.Join(work, "project")
		write(b, filepath.Join(dir, "main.tf"), fmt.Sprintf(`
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
provider "tpf" {
  root_dir = %q
}
resource "tpf_thing" "n" {
  count = %d
  name  = "n-${count.index}"
}
`, filepath.Join(work, "cloud"), count))
		run(b, dir, "init")
		run(b, dir, "apply", "-auto-approve", "-parallelism=20")
		sharedDirs[count] = dir
	}
	service, closeStore, err := workdir.OpenService(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = closeStore() })
	return dir, service
}

func write(b *testing.B, path, content string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
}

func run(b *testing.B, dir string, args ...string) {
	b.Helper()
	var out strings.Builder
	if code := command.Run(append([]string{"-chdir=" + dir}, args...), views.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}); code != 0 {
		b.Fatalf("terrane %s: %d\n%s", strings.Join(args, " "), code, out.String())
	}
}

func reconciler(b *testing.B, service *resourceservice.Service, dir string) *reconcile.Reconciler {
	rec, err := reconcile.New(service, reconcile.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ws := reconcile.Workspace{Name: "bench", Dir: dir, Project: workdir.DefaultProject, Workspace: workdir.DefaultWorkspace, Parallelism: 20, Timeout: time.Hour}
	if err := rec.Register(ws); err != nil {
		b.Fatal(err)
	}
	return rec
}

func reportPeak(b *testing.B) {
	if kib, ok := procstat.PeakRSSKiB(os.Getpid()); ok {
		b.ReportMetric(float64(kib)/1024, "peak-MiB")
	}
}

// BenchmarkRefreshCycle is one reconciler cycle; the first writes every
// instance's status, the later ones only what changed (nothing).
func BenchmarkRefreshCycle(b *testing.B) {
	n := instances(b)
	dir, service := workspace(b, n)
	rec := reconciler(b, service, dir)
	procstat.ResetPeak(os.Getpid())
	start := time.Now()
	first, err := rec.ReconcileNow(b.Context(), "bench")
	if err != nil || first.Failure != nil {
		b.Fatalf("%v %+v", err, first.Failure)
	}
	firstTook := time.Since(start)
	b.ResetTimer()
	for b.Loop() {
		report, err := rec.ReconcileNow(b.Context(), "bench")
		if err != nil || report.Failure != nil || report.Tally.InSync != n {
			b.Fatalf("%v %+v", err, report)
		}
	}
	b.ReportMetric(firstTook.Seconds(), "first-cycle-s")
	b.ReportMetric(float64(first.Tally.Written), "first-cycle-status-writes")
	reportPeak(b)
}

// BenchmarkPlanRefreshOnly is `terrane plan -refresh-only` of the same
// workspace, for comparison.
func BenchmarkPlanRefreshOnly(b *testing.B) {
	dir, _ := workspace(b, instances(b))
	procstat.ResetPeak(os.Getpid())
	b.ResetTimer()
	for b.Loop() {
		run(b, dir, "plan", "-refresh-only", "-parallelism=20")
	}
	reportPeak(b)
}

// BenchmarkPlanRefreshMaxAge is plan -refresh-only -refresh-max-age right
// after a reconciler run found everything in sync: what a plan costs when
// nothing changed and the reconciler keeps the records fresh.
func BenchmarkPlanRefreshMaxAge(b *testing.B) {
	dir, service := workspace(b, instances(b))
	rec := reconciler(b, service, dir)
	if report, err := rec.ReconcileNow(b.Context(), "bench"); err != nil || report.Failure != nil {
		b.Fatalf("%v %+v", err, report.Failure)
	}
	procstat.ResetPeak(os.Getpid())
	b.ResetTimer()
	for b.Loop() {
		run(b, dir, "plan", "-refresh-only", "-parallelism=20", "-refresh-max-age=1h")
	}
	reportPeak(b)
}

// BenchmarkStatusWrites writes a status that differs from the stored one
// to every instance, without refreshing: the store's share of a cycle
// whose every instance changed condition.
func BenchmarkStatusWrites(b *testing.B) {
	_, service := workspace(b, instances(b))
	list, err := service.List(b.Context(), store.StrongConsistency, records.ResourceInstanceType, records.Tenancy(workdir.DefaultProject, workdir.DefaultWorkspace), "")
	if err != nil {
		b.Fatal(err)
	}
	outcomes := []reconcile.Outcome{{Kind: reconcile.ConditionInSync, Reason: reconcile.ReasonRefreshed, Message: "in sync"},
		{Kind: reconcile.ConditionDrifted, Reason: reconcile.ReasonChangedOutside, Message: "drifted"}}
	written := 0
	start := time.Now()
	for b.Loop() {
		st := outcomes[written/len(list)%2].Status
		for _, res := range list {
			if _, err := service.WriteStatus(b.Context(), res.GetId(), "", reconcile.StatusKey, st(res.GetGeneration())); err != nil {
				b.Fatal(err)
			}
			written++
		}
	}
	b.ReportMetric(float64(written)/time.Since(start).Seconds(), "status-writes/s")
}

// BenchmarkThousandCycles runs 1,000 cycles of a small workspace and
// reports what grew: resident memory, goroutines and child processes (a
// provider process left behind would show there).
func BenchmarkThousandCycles(b *testing.B) {
	dir, service := workspace(b, 5)
	rec := reconciler(b, service, dir)
	cycles := 1000
	if n, err := strconv.Atoi(os.Getenv("TERRANE_BENCH_CYCLES")); err == nil && n > 0 {
		cycles = n
	}
	measure := func() (rssKiB int64, heap uint64, goroutines, children int) {
		debug.FreeOSMemory()
		var stats runtime.MemStats
		runtime.ReadMemStats(&stats)
		rss, _ := procstat.RSSKiB(os.Getpid())
		return rss, stats.HeapAlloc, runtime.NumGoroutine(), len(procstat.Children(os.Getpid()))
	}
	for b.Loop() {
		if _, err := rec.ReconcileNow(b.Context(), "bench"); err != nil {
			b.Fatal(err)
		}
		rss0, heap0, g0, c0 := measure()
		for range cycles {
			if _, err := rec.ReconcileNow(b.Context(), "bench"); err != nil {
				b.Fatal(err)
			}
		}
		rss1, heap1, g1, c1 := measure()
		b.ReportMetric(float64(rss1-rss0)/1024, "rss-growth-MiB")
		b.ReportMetric((float64(heap1)-float64(heap0))/(1<<20), "heap-growth-MiB")
		b.ReportMetric(float64(g1-g0), "goroutine-growth")
		b.ReportMetric(float64(c1-c0), "child-process-growth")
		b.Logf("%d cycles: RSS %d → %d KiB, heap %d → %d KiB, goroutines %d → %d, child processes %d → %d", cycles, rss0, rss1, heap0>>10, heap1>>10, g0, g1, c0, c1)
	}
}

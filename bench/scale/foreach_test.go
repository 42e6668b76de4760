package scale

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/bench/benchenv"
)

// BenchmarkForEachPlan plans, and saves, a for_each over a map of N
// elements written out in the configuration — the shape of a large,
// generated input — and reports the plan's wall time and Terrane's peak
// resident memory, which must grow with N and no faster. "resource" is one
// tpsdk_widget per element; "module" one module instance per element, each
// with one tpsdk_widget; "data" the same map through terraform_data, whose
// provider runs inside Terrane, so the figure is Terrane's alone.
//
//	TERRANE_FOREACH_SIZES=10000,50000,200000 go test -run '^$' -bench ForEachPlan -benchtime 1x -timeout 2h ./bench/scale
//
// TERRANE_FOREACH_SIZES defaults to 10000; TERRANE_FOREACH_SHAPES chooses
// shapes (default all).
func BenchmarkForEachPlan(b *testing.B) {
	for _, shape := range forEachShapes(b) {
		for _, n := range forEachSizes(b) {
			b.Run(fmt.Sprintf("%s/n=%d", shape.name, n), func(b *testing.B) {
				for range b.N {
					planForEach(b, shape, n)
				}
			})
		}
	}
}

type forEachShape struct {
	name string
	// body is the configuration beside the map local.m, given the cloud
	// directory; files are extra files (a module) by path.
	body  func(cloud string) string
	files map[string]string
}

var forEachShapesAll = []forEachShape{
	{name: "resource", body: func(cloud string) string {
		return fmt.Sprintf(forEachProvider, cloud) + `
resource "tpsdk_widget" "w" {
  for_each = local.m
  name     = "w-${each.key}"
  size     = each.value
}
`
	}},
	{name: "module", body: func(cloud string) string {
		return fmt.Sprintf(forEachProvider, cloud) + `
module "m" {
  source   = "./item"
  for_each = local.m
  key      = each.key
  size     = each.value
}
`
	}, files: map[string]string{"item/main.tf": `terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}
variable "key" {
  type = string
}
variable "size" {
  type = number
}
resource "tpsdk_widget" "w" {
  name = "w-${var.key}"
  size = var.size
}
output "id" {
  value = tpsdk_widget.w.id
}
`}},
	{name: "data", body: func(string) string {
		return `
resource "terraform_data" "w" {
  for_each = local.m
  input    = { key = each.key, size = each.value }
}
`
	}},
}

const forEachProvider = `terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}

provider "tpsdk" {
  root_dir = %q
}
`

// writeForEachMap writes local.m, a map of n elements "kI" = I%%9+1, into
// dir as a file of its own.
func writeForEachMap(dir string, n int) error {
	var sb strings.Builder
	sb.WriteString("locals {\n  m = {\n")
	for i := range n {
		fmt.Fprintf(&sb, "    k%d = %d\n", i, i%9+1)
	}
	sb.WriteString("  }\n}\n")
	return writeFile(filepath.Join(dir, "map.tf"), sb.String())
}

func planForEach(b *testing.B, shape forEachShape, n int) {
	env := benchenv.Get(b)
	project := filepath.Join(b.TempDir(), "project")
	if err := writeForEachMap(project, n); err != nil {
		b.Fatal(err)
	}
	if err := writeFile(filepath.Join(project, "main.tf"), shape.body(b.TempDir())); err != nil {
		b.Fatal(err)
	}
	for path, text := range shape.files {
		if err := writeFile(filepath.Join(project, path), text); err != nil {
			b.Fatal(err)
		}
	}
	if _, out, err := runMeasured(env.Binary, project, env.Vars, "init", "-no-color"); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	u, out, err := runMeasured(env.Binary, project, env.Vars, "plan", "-refresh=false", "-no-color", "-out=tfplan")
	if err != nil {
		b.Fatal(err)
	}
	if want := fmt.Sprintf("Plan: %d to add, 0 to change, 0 to destroy", n); !strings.Contains(out, want) {
		b.Fatalf("the plan does not say %q:\n%s", want, tail(out, 4000))
	}
	b.ReportMetric(u.wall.Seconds(), "plan-s")
	b.ReportMetric(float64(u.terranePeakKiB)/1024, "terrane-peak-MiB")
	b.ReportMetric(float64(u.terranePeakKiB)*1024/float64(n), "terrane-peak-B/instance")
	fmt.Printf("| for_each %s | %d | %.1f | %.0f | %.1f |\n", shape.name, n, u.wall.Seconds(),
		float64(u.terranePeakKiB)/1024, float64(u.terranePeakKiB)/float64(n))
}

func forEachSizes(b *testing.B) []int { return benchenv.Sizes(b, "TERRANE_FOREACH_SIZES", 10000) }

func forEachShapes(b *testing.B) []forEachShape {
	return selectNamed(b, "TERRANE_FOREACH_SHAPES", forEachShapesAll, func(s forEachShape) string { return s.name })
}

package scale

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// shape is one kind of generated configuration. Every shape puts n
// tpsdk_widget instances in the configuration; the first instance's size is
// the variable first_size, so one -var changes exactly one instance in place.
type shape struct {
	name string
	// write writes the configuration for n instances into dir.
	write func(dir, cloud string, n int) error
	// dependentHalf reports whether the second half of the instances each
	// read an attribute of one instance of the first half.
	dependentHalf bool
}

var shapes = []shape{
	{name: "independent", write: writeIndependent},
	{name: "fanout", write: writeFanout, dependentHalf: true},
	{name: "modules", write: writeModules},
}

const providerBlock = `terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}

provider "tpsdk" {
  root_dir = %q
}

variable "first_size" {
  type    = number
  default = 1
}
`

// writeIndependent is n instances of one count resource, none referring to
// another.
func writeIndependent(dir, cloud string, n int) error {
	return writeFile(filepath.Join(dir, "main.tf"), fmt.Sprintf(providerBlock+`
resource "tpsdk_widget" "w" {
  count = %d
  name  = "w-${count.index}"
  size  = count.index == 0 ? var.first_size : 1
}
`, cloud, n))
}

// writeFanout is n/2 count instances and n/2 for_each instances, each of
// the latter reading the id of one of the former. The for_each keys are
// built from ranges of at most fanoutChunk numbers, merged, because range()
// refuses to make more than 1,024 values.
func writeFanout(dir, cloud string, n int) error {
	half := n / 2
	dependents := n - half
	chunks := (dependents + fanoutChunk - 1) / fanoutChunk
	return writeFile(filepath.Join(dir, "main.tf"), fmt.Sprintf(providerBlock+`
resource "tpsdk_widget" "base" {
  count = %d
  name  = "base-${count.index}"
  size  = count.index == 0 ? var.first_size : 1
}

resource "tpsdk_widget" "dependent" {
  for_each = merge([for c in range(%[4]d) : { for i in range(c * %[5]d, min((c + 1) * %[5]d, %[3]d)) : "d${i}" => i }]...)
  name     = "dep-${each.value}"
  labels   = { base = tpsdk_widget.base[each.value].id }
}
`, cloud, half, dependents, chunks, fanoutChunk))
}

const fanoutChunk = 1000

// moduleDepth and moduleFanout shape the module tree: every module instance
// above the deepest level calls the next level moduleFanout times, so the
// tree holds 1+2+4+8+16 = 31 module instances (root included), each with
// an equal share of the widgets.
const (
	moduleDepth  = 4
	moduleFanout = 2
)

func moduleInstances() int {
	total, width := 0, 1
	for range moduleDepth + 1 {
		total += width
		width *= moduleFanout
	}
	return total
}

// writeModules is a module tree moduleDepth deep; n is rounded down to a
// multiple of the number of module instances.
func writeModules(dir, cloud string, n int) error {
	perModule := n / moduleInstances()
	root := fmt.Sprintf(providerBlock+`
resource "tpsdk_widget" "w" {
  count = %d
  name  = "root-${count.index}"
  size  = count.index == 0 ? var.first_size : 1
}

module "child" {
  source   = "./modules/level1"
  for_each = toset([%s])
  prefix   = "m-${each.key}"
  widgets  = %d
}
`, cloud, perModule, fanoutKeys(), perModule)
	if err := writeFile(filepath.Join(dir, "main.tf"), root); err != nil {
		return err
	}
	for level := 1; level <= moduleDepth; level++ {
		var call string
		if level < moduleDepth {
			call = fmt.Sprintf(`
module "child" {
  source   = "../level%d"
  for_each = toset([%s])
  prefix   = "${var.prefix}-${each.key}"
  widgets  = var.widgets
}
`, level+1, fanoutKeys())
		}
		body := `terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}

variable "prefix" { type = string }
variable "widgets" { type = number }

resource "tpsdk_widget" "w" {
  count = var.widgets
  name  = "${var.prefix}-${count.index}"
}
` + call
		if err := writeFile(filepath.Join(dir, "modules", fmt.Sprintf("level%d", level), "main.tf"), body); err != nil {
			return err
		}
	}
	return nil
}

func fanoutKeys() string {
	keys := make([]string, moduleFanout)
	for i := range keys {
		keys[i] = fmt.Sprintf("%q", fmt.Sprintf("k%d", i))
	}
	return strings.Join(keys, ", ")
}

// instanceCount is how many instances shape s really has for a requested n.
func (s shape) instanceCount(n int) int {
	if s.name == "modules" {
		return n / moduleInstances() * moduleInstances()
	}
	return n
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

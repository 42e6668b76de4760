package e2etest

import (
	"slices"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestE2EReplaceTriggeredByRefusesWhatCannotTrigger checks, against
// terraform 1.11 (OpenTofu decodes replace_triggered_by the same way),
// that an element naming no resource (a variable, a local, a constant) or
// more than one is an error: such an element could never trigger, and was
// once silently ignored.
func TestE2EReplaceTriggeredByRefusesWhatCannotTrigger(t *testing.T) {
	t.Parallel()
	cases := map[string]struct{ triggers, summary string }{
		"variable": {`[var.release]`, "Invalid reference in replace_triggered_by expression"},
		"local":    {`[local.version]`, "Invalid reference in replace_triggered_by expression"},
		"constant": {`["v1"]`, "Missing resource reference in replace_triggered_by expression"},
		"two":      {`[tpf_thing.a.id == tpf_thing.b.id]`, "Multiple resource references in replace_triggered_by expression"},
		"each":     {`[tpf_thing.a[each.value]]`, "Only each.key may be used in replace_triggered_by"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			forEach := ""
			if name == "each" {
				forEach = `for_each = toset(["x"])`
			}
			config := func(triggers string) map[string]string {
				return map[string]string{"main.tf": lifecycleHeader + `
variable "release" {
  default = "v1"
}

locals {
  version = "v1"
}

resource "tpf_thing" "a" {
  ` + forEach + `
  name = "a"
}

resource "tpf_thing" "b" {
  name = "b"
}

resource "tpf_thing" "c" {
  ` + forEach + `
  name = "c"
  lifecycle {
    replace_triggered_by = ` + triggers + `
  }
}
`}
			}
			// init reads the configuration too: start from a valid one.
			p := newInitialisedProject(t, config(`[tpf_thing.b]`))
			p.writeFiles(config(c.triggers))
			res := p.result("validate", "-no-color")
			p.expectCode("validate", res, 1)
			clitest.AssertContains(t, "validate", res.stdout+res.stderr, c.summary)
		})
	}
}

const replaceTriggersConfig = lifecycleHeader + `
variable "descriptions" {
  type    = list(string)
  default = ["one", "one"]
}

resource "tpf_thing" "src" {
  count       = 2
  name        = "src${count.index}"
  description = var.descriptions[count.index]
}

resource "tpf_thing" "by_index" {
  count = 2
  name  = "by_index${count.index}"
  lifecycle {
    replace_triggered_by = [tpf_thing.src[count.index]]
  }
}

resource "tpf_thing" "by_resource" {
  name = "by_resource"
  lifecycle {
    replace_triggered_by = [tpf_thing.src]
  }
}

resource "tpf_thing" "by_changed_attribute" {
  name = "by_changed_attribute"
  lifecycle {
    replace_triggered_by = [tpf_thing.src[1].description]
  }
}

resource "tpf_thing" "by_unchanged_attribute" {
  name = "by_unchanged_attribute"
  lifecycle {
    replace_triggered_by = [tpf_thing.src[1].tags]
  }
}
`

const plannedActionPattern = `(?m)^\s*# (\S+) (must be replaced|will be replaced|will be updated in-place|will be created|will be destroyed)`

// TestE2EReplaceTriggeredByInstancesAndAttributes checks, against
// terraform 1.11 (OpenTofu evaluates replace_triggered_by the same way),
// which objects an update of one instance replaces: the instance of the
// same count.index, a resource named whole, and an attribute only when
// that attribute changes.
func TestE2EReplaceTriggeredByInstancesAndAttributes(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": replaceTriggersConfig})
	p.expectCode("apply", p.result("apply", "-no-color", "-auto-approve"), 0)
	args := []string{"plan", "-no-color", `-var=descriptions=["one","two"]`}
	res := p.result(args...)
	p.expectCode("plan", res, 0)
	want := []string{
		"tpf_thing.by_changed_attribute will be replaced",
		"tpf_thing.by_index[1] will be replaced",
		"tpf_thing.by_resource will be replaced",
		"tpf_thing.src[1] will be updated in-place",
	}
	if got := matchedLines(plannedActionPattern, res.stdout); !slices.Equal(got, want) {
		t.Errorf("planned %q, want %q\n%s", got, want, res.stdout)
	}
}

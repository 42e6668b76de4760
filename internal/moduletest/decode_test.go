package moduletest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadSource writes src as a test file and reads it back.
func loadSource(t *testing.T, name, src string) *File {
	t.Helper()
	t.Chdir(t.TempDir())
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return NewLoader().Load(name)
}

func TestDecodeEveryBlockOpenTofuAccepts(t *testing.T) {
	f := loadSource(t, "main.tftest.hcl", `
variables {
  a = 1
}

provider "tpf" {
  alias    = "x"
  root_dir = var.a
}

mock_provider "tpf" {
  alias = "m"
  mock_resource "tpf_thing" {
    defaults = { id = "i" }
  }
  mock_data "tpf_thing" {}
  override_resource {
    target = tpf_thing.a
  }
  override_data {
    target = data.tpf_thing.d
  }
}

override_resource {
  target = module.m.tpf_thing.b
  values = { id = "b" }
}

override_module {
  target  = module.m
  outputs = { o = 1 }
}

run "r" {
  command   = plan
  providers = { tpf = tpf.x }
  expect_failures = [var.a, output.o, check.c, tpf_thing.a, data.tpf_thing.d[0]]
  variables {
    a = 2
  }
  module {
    source = "./m"
  }
  plan_options {
    mode    = refresh-only
    refresh = true
    replace = [tpf_thing.a]
    target  = [module.m]
  }
  assert {
    condition     = var.a == 2
    error_message = "no"
  }
  override_data {
    target = data.tpf_thing.d
  }
  override_module {
    target = module.m
  }
}
`)
	if f.Diagnostics.HasErrors() {
		t.Fatalf("diagnostics: %s", f.Diagnostics.Err())
	}
	if len(f.Runs) != 1 || len(f.Providers) != 1 || len(f.MockProviders) != 1 || len(f.Overrides) != 1 || len(f.ModuleMocks) != 1 {
		t.Fatalf("decoded %+v", f)
	}
	run := f.Runs[0]
	if run.Command != PlanCommand || !run.Options.RefreshOnly || len(run.Options.Replace) != 1 || len(run.Options.Target) != 1 ||
		run.Module.Source != "./m" || len(run.Asserts) != 1 || len(run.ExpectFailures) != 5 || !run.HasProviders ||
		len(run.Overrides) != 1 || len(run.ModuleMocks) != 1 {
		t.Errorf("run decoded as %+v", run)
	}
	expected, ds := parseExpectedFailures(run.ExpectFailures)
	if ds.HasErrors() || len(expected) != 5 {
		t.Fatalf("expect_failures: %v %v", expected, ds.Err())
	}
	var addrs []string
	for _, e := range expected {
		addrs = append(addrs, e.addr)
	}
	if got := strings.Join(addrs, " "); got != "var.a output.o check.c tpf_thing.a data.tpf_thing.d[0]" {
		t.Errorf("expected failures %s", got)
	}
}

func TestDecodeRefusesWhatItDoesNotImplement(t *testing.T) {
	cases := map[string]struct{ src, summary string }{
		"unknown block":        {`unknown {}`, "Unsupported block type"},
		"unknown run argument": {`run "r" { parallel = true }`, "Unsupported argument"},
		"registry module": {`run "r" {
  module {
    source = "hashicorp/x/aws"
  }
}`, "Invalid module source address"},
		"module version": {`run "r" {
  module {
    source  = "./m"
    version = "1.0.0"
  }
}`, "Module versions are not supported in run blocks"},
		"mock for_each": {`mock_provider "p" { for_each = {} }`, `Alias required when using "for_each"`},
		"bad command":   {`run "r" { command = destroy }`, `Invalid "command" keyword`},
		"bad mode": {`run "r" {
  plan_options {
    mode = destroy
  }
}`, `Invalid "mode" keyword`},
		"refresh-only without refresh": {`run "r" {
  plan_options {
    mode    = refresh-only
    refresh = false
  }
}`, "Incompatible plan options"},
		"instance override": {`override_resource { target = a.b[0] }`, "Invalid override target"},
		"values with refs": {`override_resource {
  target = a.b
  values = { x = var.y }
}`, "Variables not allowed"},
		"values not an object": {`mock_provider "p" {
  mock_resource "a" {
    defaults = "x"
  }
}`, "Object expected"},
		"duplicate mocks": {`
mock_provider "p" {}
mock_provider "p" {}`, "Duplicated `mock_provider` block"},
		"two variables blocks": {`
variables {}
variables {}`, `Multiple "variables" blocks`},
		"bad run name": {`run "1st" {}`, "Invalid run block name"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			f := loadSource(t, "main.tftest.hcl", c.src)
			if !f.Diagnostics.HasErrors() {
				t.Fatalf("no error")
			}
			found := false
			for _, d := range f.Diagnostics {
				found = found || d.Summary == c.summary
				if d.Subject == nil {
					t.Errorf("%q has no source range", d.Summary)
				}
			}
			if !found {
				t.Errorf("errors %v, want %q", f.Diagnostics, c.summary)
			}
		})
	}
}

func TestFindFilesPrefersOpenTofuVariants(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, name := range []string{"a.tftest.hcl", "a.tofutest.hcl", "b.tftest.json", "b.tofutest.json", "c.tftest.hcl",
		"tests/d.tftest.hcl", "tests/d.tofutest.hcl", "tests/e.tftest.json", "other/f.tftest.hcl", "main.tf"} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names, ds := FindFiles("tests")
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want := "a.tofutest.hcl b.tofutest.json c.tftest.hcl tests/d.tofutest.hcl tests/e.tftest.json"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("files %s, want %s", got, want)
	}
}

func TestDecodeJSONTestFile(t *testing.T) {
	f := loadSource(t, "tests/main.tftest.json", `{
  "variables": {"name": "x"},
  "run": {
    "first": {
      "command": "plan",
      "plan_options": {"mode": "refresh-only"},
      "assert": [{"condition": "${output.name == \"x\"}", "error_message": "wrong"}],
      "expect_failures": ["var.name"]
    },
    "second": {}
  }
}`)
	if f.Diagnostics.HasErrors() {
		t.Fatal(f.Diagnostics.Err())
	}
	if len(f.Runs) != 2 || f.Runs[0].Name != "first" || f.Runs[0].Command != PlanCommand || !f.Runs[0].Options.RefreshOnly ||
		len(f.Runs[0].Asserts) != 1 || len(f.Runs[0].ExpectFailures) != 1 || f.Runs[1].Command != ApplyCommand || f.Variables["name"] == nil {
		t.Errorf("decoded %+v / %+v", f.Runs[0], f.Runs[1])
	}
}

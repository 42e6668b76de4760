package reconcile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/reconcile"
)

func TestLoadFileReadsWorkspacesAndLimits(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "reconcile.hcl")
	writeFile(t, path, `
workspace "app-prod" {
  dir        = "app"
  project    = "shop"
  workspace  = "prod"
  vars       = { region = "eu" }
  var_files  = ["prod.tfvars"]
  cli_config = "terraformrc"
  interval   = "30s"
  timeout    = "2m"
  auto_apply = "drift"
}

workspace "app-dev" {
  dir = "app"
}

provider_limit "hashicorp/aws" {
  reads_per_second = 5
  burst            = 10
}
`)
	regs, ds := reconcile.LoadFile(path)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if len(regs.Workspaces) != 2 || len(regs.Limits) != 1 {
		t.Fatalf("%d workspaces, %d limits", len(regs.Workspaces), len(regs.Limits))
	}
	prod, dev := regs.Workspaces[0], regs.Workspaces[1]
	app := filepath.Join(dir, "app")
	if prod.Dir != app || prod.Project != "shop" || prod.Workspace != "prod" || prod.Vars["region"] != "eu" ||
		prod.VarFiles[0] != filepath.Join(dir, "prod.tfvars") || prod.CLIConfigFile != filepath.Join(dir, "terraformrc") ||
		prod.Interval != 30*time.Second || prod.Timeout != 2*time.Minute || prod.AutoApply != reconcile.AutoApplyDrift {
		t.Errorf("app-prod: %+v", prod)
	}
	if dev.Project != "default" || dev.Workspace != "default" || dev.AutoApply != "" ||
		dev.Interval != reconcile.DefaultInterval || dev.Timeout != reconcile.DefaultTimeout {
		t.Errorf("app-dev (defaults; auto-apply off): %+v", dev)
	}
	if limit := regs.Limits[0]; limit.Provider != "hashicorp/aws" || limit.ReadsPerSecond != 5 || limit.Burst != 10 {
		t.Errorf("limit: %+v", limit)
	}
}

// Every mistake in the file is a diagnostic that points at its block and
// says what to do; nothing unknown is ignored.
func TestLoadFileRejectsBadRegistrations(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, body, want string }{
		{"auto_apply", `workspace "a" {
  dir        = "."
  auto_apply = "always"
}`, `auto_apply = "always" is not supported`},
		{"interval", `workspace "a" {
  dir      = "."
  interval = "often"
}`, `interval = "often" is not a positive duration`},
		{"timeout", `workspace "a" {
  dir     = "."
  timeout = "-1s"
}`, `timeout = "-1s" is not a positive duration`},
		{"dir", `workspace "a" {
  dir = "nowhere"
}`, `dir = "nowhere" is not a directory`},
		{"duplicate", `workspace "a" {
  dir = "."
}
workspace "a" {
  dir = "."
}`, `A workspace named "a" was already registered`},
		{"name", `workspace "a b" {
  dir = "."
}`, `"a b" is not a valid name`},
		{"project", `workspace "a" {
  dir     = "."
  project = "x/y"
}`, `project = "x/y" is not a valid name`},
		{"parallelism", `workspace "a" {
  dir         = "."
  parallelism = 0
}`, "parallelism must be at least 1"},
		{"unknown argument", `workspace "a" {
  dir      = "."
  schedule = "hourly"
}`, `An argument named "schedule" is not expected here`},
		{"unknown block", `reconciler {
}`, `Blocks of type "reconciler" are not expected here`},
		{"limit rate", `provider_limit "hashicorp/aws" {
  reads_per_second = 0
}`, "reads_per_second must be above 0"},
		{"limit provider", `provider_limit "not a/source/at/all" {
  reads_per_second = 1
}`, "Invalid provider limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".hcl")
			writeFile(t, path, tc.body+"\n")
			_, ds := reconcile.LoadFile(path)
			if !ds.HasErrors() {
				t.Fatal("no error")
			}
			text := ds.Err().Error()
			if !strings.Contains(text, tc.want) {
				t.Errorf("error %q does not say %q", text, tc.want)
			}
			for _, d := range ds {
				if d.Subject == nil || d.Subject.Filename != path {
					t.Errorf("diagnostic %q has no source range in %s", d.Summary, path)
				}
			}
		})
	}
}

package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/workdir"
)

func writeConfig(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestOpenPlansWithTheGivenValues opens a run over a directory, its
// variable values chosen by the caller from the loaded configuration and
// the -var options given to the early evaluation too, and plans with it.
func TestOpenPlansWithTheGivenValues(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, map[string]string{"main.tf": `
variable "name" {
  type = string
}
resource "terraform_data" "d" {
  input = var.name
}
`})
	var seen []string
	opts := Options{
		Dir:     dir,
		Environ: []string{},
		Vars:    []inputvars.VarOption{{Text: "name=web"}},
		Values: func(cfg *config.Config) (engine.InputValues, diags.Diagnostics) {
			for name := range cfg.Module.Variables {
				seen = append(seen, name)
			}
			given, ds := inputvars.CollectValues(dir, cfg.Module.Variables, []inputvars.VarOption{{Text: "name=web"}}, nil)
			return given.Engine(), ds
		},
		Plans: true, MayCreate: true,
	}
	r, ds := Open(context.Background(), opts)
	if ds.HasErrors() {
		t.Fatalf("open: %s", ds.Err())
	}
	defer r.Close()
	if strings.Join(seen, ",") != "name" {
		t.Errorf("Values saw variables %v, want [name]", seen)
	}
	if r.Workspace != "default" || r.Project != workdir.DefaultProject {
		t.Errorf("workspace %q of project %q, want default of %q", r.Workspace, r.Project, workdir.DefaultProject)
	}
	plan, ds := r.Engine.Plan(context.Background(), engine.PlanOpts{})
	if ds.HasErrors() {
		t.Fatalf("plan: %s", ds.Err())
	}
	if len(plan.Changes.Resources) != 1 || plan.Changes.Resources[0].Action != plans.Create {
		t.Fatalf("plan changes %v, want one create", plan.Changes.Resources)
	}
}

// TestOpenRefusesEncryptedStateInASharedStore refuses a configuration that
// encrypts its state when its records would go to a store the caller gives
// (the reconciler's, shared with other configurations), naming the block.
func TestOpenRefusesEncryptedStateInASharedStore(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, map[string]string{"main.tf": `
terraform {
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = "correct-horse-battery-staple"
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    state {
      method = method.aes_gcm.m
    }
  }
}
resource "terraform_data" "d" {}
`})
	store, closeStore, err := workdir.OpenStore(t.TempDir(), "p", "w", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore()
	r, ds := Open(context.Background(), Options{Dir: dir, Environ: []string{}, Store: store, Project: "p", Workspace: "w"})
	if r != nil {
		r.Close()
		t.Fatal("a configuration encrypting its state was opened over a shared store")
	}
	if !ds.HasErrors() || ds[len(ds)-1].Summary != "State encryption is not supported here" || ds[len(ds)-1].Subject == nil {
		t.Fatalf("diagnostics %v, want the refusal with the encryption block's range", ds)
	}
}

// TestGetenvLastSettingWins reads an environment as a process does: the
// last setting of a name counts, and a name without "=" has no value.
func TestGetenvLastSettingWins(t *testing.T) {
	t.Parallel()
	env := []string{"A=1", "B=2", "A=3", "C"}
	for name, want := range map[string]string{"A": "3", "B": "2", "C": "", "D": ""} {
		if got := getenv(env, name); got != want {
			t.Errorf("getenv(%q) = %q, want %q", name, got, want)
		}
	}
}

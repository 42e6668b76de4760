package command

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const webViewConfig = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

resource "tpf_thing" "web" {
  name        = "web"
  description = "serves traffic"
  secret      = "hunter2"
}

resource "tpf_thing" "db" {
  name = "db"
  tags = { client = tpf_thing.web.id }
}

resource "tpf_thing" "slow" {
  name        = "slow"
  description = "first"
  fail        = "slow"
}
`

// browserTools returns node and the web/ folder with playwright-core
// installed. Where the machine lacks them the test is skipped, except in
// CI, whose .ci/run installs them: there a missing tool is a failure.
func browserTools(t *testing.T) (node, webDir string) {
	t.Helper()
	missing := func(what string) {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatalf("%s, and CI is set: .ci/run installs it", what)
		}
		t.Skip(what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		missing("Debian's chromium is not installed (apt-get install chromium)")
	}
	webDir, err = filepath.Abs(filepath.Join("..", "..", "web"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(webDir, "node_modules", "playwright-core")); err != nil {
		missing("playwright-core is not installed in web/ (cd web && npm ci)")
	}
	return node, webDir
}

// The web view, driven by Playwright in headless Chromium: the page shows
// the workspace in sync, then an object changed behind Terrane's back turn
// Drifted live (the reconciler's next run; no reload), with sensitive
// attributes hidden; an apply from the CLI shows as a run in progress
// until done; a token for another tenancy sees nothing.
func TestWebViewInBrowser(t *testing.T) {
	node, webDir := browserTools(t)
	p := newE2EProject(t, webViewConfig)
	p.mustRun("apply", "-auto-approve")
	reconcileFile := filepath.Join(t.TempDir(), "reconcile.hcl")
	writeFile(t, reconcileFile, `
workspace "prod" {
  dir      = "`+p.dir+`"
  interval = "1s"
}
`)
	stdout, stderr := serveControlPlane(t, p, "-reconcile", reconcileFile)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	url := waitFor(t, "web view address", stdout, regexp.MustCompile(`Web view on (http://\S+/)`))[1]

	script := exec.CommandContext(ctx, node, filepath.Join(webDir, "e2e", "live.mjs"))
	script.Dir = webDir
	script.Env = append(os.Environ(), "TERRANE_URL="+url, "TERRANE_TOKEN=full-secret", "TERRANE_OTHER_TOKEN=other-secret")
	var scriptErr syncBuffer
	script.Stderr = &scriptErr
	out, err := script.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := script.Start(); err != nil {
		t.Fatal(err)
	}
	var steps []string
	applied := make(chan string, 1)
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		steps = append(steps, lines.Text())
		switch lines.Text() {
		case "waiting-for-drift":
			web := p.objects("tpf_thing")["web"]
			p.editObject(web, func(attrs map[string]any) { attrs["description"] = "changed by hand" })
		case "waiting-for-apply":
			// An apply that undoes web's drift and updates slow, which
			// takes the provider a few seconds.
			p.write(strings.Replace(webViewConfig, `"first"`, `"second"`, 1))
			go func() {
				stdout, stderr, code := p.run("apply", "-auto-approve")
				if code != 0 {
					applied <- fmt.Sprintf("exit %d\n%s\n%s", code, stdout, stderr)
					return
				}
				applied <- ""
			}()
			defer func() {
				if problem := <-applied; problem != "" {
					t.Errorf("the apply during the browser check: %s", problem)
				}
			}()
		}
	}
	if err := script.Wait(); err != nil {
		t.Fatalf("the browser check failed: %v\nsteps: %v\nbrowser log:\n%s\nserve stderr:\n%s", err, steps, scriptErr.String(), stderr.String())
	}
	if got := strings.Join(steps, ","); got != "waiting-for-drift,saw-drift,waiting-for-apply,saw-apply,other-tenancy-sees-nothing" {
		t.Fatalf("steps %s\nbrowser log:\n%s", got, scriptErr.String())
	}
}

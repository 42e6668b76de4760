package e2etest

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/tlstest"
	"github.com/terrane/terrane/internal/workdir"
)

// serveControlPlane runs `terrane serve` over p's store with the web view
// and two tokens, full-secret and other-secret (for the tenancy other/*),
// until the test ends, when it is interrupted and must stop.
func serveControlPlane(t *testing.T, p *e2eProject, args ...string) (stdout, stderr *clitest.SyncBuffer) {
	t.Helper()
	args = append([]string{"serve", "-listen", "127.0.0.1:0", "-backend", "sqlite://" + workdir.StatePath(p.dir),
		"-token", "full-secret", "-token", "other-secret@other/*", "-ui", "-ui-listen", "127.0.0.1:0"}, args...)
	serve := startInBackground(t, p, args...)
	t.Cleanup(func() {
		serve.interrupt(t, "terrane serve")
		assertNoProcessLeft(t, "terrane serve", serve.cmd)
	})
	return serve.out, serve.errOut
}

// trustingPool is a certificate pool that trusts the certificate in
// certFile.
func trustingPool(t *testing.T, certFile string) *x509.CertPool {
	t.Helper()
	pemData, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemData) {
		t.Fatalf("no certificate in %s", certFile)
	}
	return pool
}

// The control plane over TLS with tokens: the reconciler of `serve
// -reconcile` refreshes on start and then only on demand (POST
// /api/refresh, the web view's "Refresh now"); `terrane status` and
// `terrane watch` against the served store show the conditions it
// records, InSync and then Drifted with the attribute that differs; the
// web view speaks only TLS; and a token for another tenancy sees nothing.
func TestStatusAndWatchShowTheReconcilersConditions(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, webViewConfig)
	p.mustRun("apply", "-auto-approve")
	certFile, keyFile := tlstest.WriteCertificate(t, t.TempDir())
	pool := trustingPool(t, certFile)
	reconcileFile := filepath.Join(t.TempDir(), "reconcile.hcl")
	clitest.WriteFile(t, reconcileFile, "workspace \"prod\" {\n  dir      = \""+p.dir+"\"\n  interval = \"1h\"\n}\n")

	stdout, stderr := serveControlPlane(t, p, "-tls-cert", certFile, "-tls-key", keyFile, "-reconcile", reconcileFile)
	addr := clitest.WaitFor(t, "store address", stdout, regexp.MustCompile(`serving \S+ on (\S+)`))[1]
	ui := clitest.WaitFor(t, "web view address", stdout, regexp.MustCompile(`Web view on (https://(\S+))/`))
	remote := []string{"-address", addr, "-tls-ca", certFile, "-token", "full-secret"}

	status := func(args ...string) string {
		t.Helper()
		out, errOut, code := p.run(append(append([]string{"status"}, remote...), args...)...)
		if code != 0 {
			t.Fatalf("status %v: exit %d\n%s%s\nserve:\n%s", args, code, out, errOut, stderr.String())
		}
		return out
	}
	inSync := regexp.MustCompile(`(?m)^tpf_thing\.web\s+InSync\s+`)
	eventually(t, "web InSync after the first run", func() bool { return inSync.MatchString(status()) })
	if out := status(); !strings.Contains(out, "Workspace default/default (as of ") || !strings.Contains(out, "Reconciled TRUE (Completed)") {
		t.Errorf("status does not summarise the workspace:\n%s", out)
	}

	jsonWatch := startInBackground(t, p, append([]string{"watch", "-json"}, remote...)...)
	humanWatch := startInBackground(t, p, append([]string{"watch"}, remote...)...)
	watchOut, watchErr := jsonWatch.out, jsonWatch.errOut
	humanOut, humanErr := humanWatch.out, humanWatch.errOut
	clitest.WaitFor(t, "watch snapshot", watchOut, regexp.MustCompile(`end_of_snapshot`))
	clitest.WaitFor(t, "watch snapshot", humanOut, regexp.MustCompile(`end of snapshot`))

	web := p.objects("tpf_thing")["web"]
	p.editObject(web, func(attrs map[string]any) { attrs["description"] = "changed by hand" })
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	defer client.CloseIdleConnections()
	post := func(token string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ui[1]+"/api/refresh?name=prod", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("other-secret"); code != http.StatusNotFound {
		t.Errorf("another tenancy's token asking for a refresh: HTTP %d, want 404", code)
	}
	if code := post("full-secret"); code != http.StatusAccepted {
		t.Fatalf("POST /api/refresh: HTTP %d", code)
	}
	drifted := regexp.MustCompile(`"name":"tpf_thing.web".*"terrane.reconcile":.*"type":"Drifted","state":"TRUE","reason":"ChangedOutsideTerrane","message":"[^"]*description`)
	clitest.WaitFor(t, "watch shows web Drifted", watchOut, drifted)
	clitest.WaitFor(t, "watch prints web Drifted", humanOut, regexp.MustCompile(
		`(?s)end of snapshot.*tpf_thing\.web \(generation.*\n    status terrane\.reconcile: Drifted \(ChangedOutsideTerrane\) at generation \w+: Changed outside Terrane: description`))

	out := status("tpf_thing.web")
	if !regexp.MustCompile(`(?m)^tpf_thing\.web\s+Drifted\s+ChangedOutsideTerrane\s+.*description`).MatchString(out) || strings.Contains(out, "tpf_thing.db") {
		t.Errorf("status tpf_thing.web:\n%s", out)
	}
	var doc struct {
		Summary   statusView   `json:"summary"`
		Instances []statusView `json:"instances"`
	}
	// The run writes the workspace's summary after its instances'
	// statuses: wait for the summary of the run that found the drift.
	eventually(t, "the workspace summary of the run that found the drift", func() bool {
		doc.Summary, doc.Instances = statusView{}, nil
		if err := json.Unmarshal([]byte(status("-json", "tpf_thing.web")), &doc); err != nil {
			t.Fatal(err)
		}
		return hasTrue(doc.Summary, "Drifted")
	})
	if len(doc.Instances) != 1 || doc.Instances[0].ObservedGeneration != doc.Instances[0].Generation || !hasTrue(doc.Instances[0], "Drifted") {
		t.Errorf("status -json: %+v", doc.Instances)
	}
	if !hasTrue(doc.Summary, "Drifted") {
		t.Errorf("the workspace summary is not Drifted: %+v", doc.Summary)
	}
	if _, errOut, code := p.run("status", "-address", addr, "-tls-ca", certFile, "-token", "full-secret", "tpf_thing.nothing"); code != 1 || !strings.Contains(errOut, "no resource instance at tpf_thing.nothing") {
		t.Errorf("status of an unknown address: exit %d, %s", code, errOut)
	}
	if out, errOut, code := p.run("status", "-address", addr, "-tls-ca", certFile, "-token", "other-secret"); code != 1 || !strings.Contains(errOut, "PermissionDenied") || strings.Contains(out, "tpf_thing") {
		t.Errorf("status with another tenancy's token: exit %d\n%s%s", code, out, errOut)
	}

	// The web view answers only over TLS.
	if resp, err := http.Get("http://" + ui[2] + "/"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Error("the web view answered plain HTTP")
		}
	}
	for _, watch := range []*backgroundRun{jsonWatch, humanWatch} {
		if code := watch.interrupt(t, "terrane watch"); code != 0 {
			t.Errorf("watch exited %d: %s%s", code, watchErr.String(), humanErr.String())
		}
	}
}

// statusView is what status -json prints of one record's status.
type statusView struct {
	Generation         string `json:"generation"`
	ObservedGeneration string `json:"observed_generation"`
	ConditionsJSON     []struct {
		Type    string `json:"type"`
		State   string `json:"state"`
		Reason  string `json:"reason"`
		Message string `json:"message"`
	} `json:"conditions"`
}

func hasTrue(view statusView, conditionType string) bool {
	for _, c := range view.ConditionsJSON {
		if c.Type == conditionType {
			return c.State == "TRUE" && c.Reason != "" && c.Message != ""
		}
	}
	return false
}

// eventually retries check for up to a minute (a reconciler run starts
// provider processes).
func eventually(t *testing.T, what string, check func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !check() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute", what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

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
	webDir, err = filepath.Abs(filepath.Join("..", "..", "..", "web"))
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
	t.Parallel()
	node, webDir := browserTools(t)
	p := newE2EProject(t, webViewConfig)
	p.mustRun("apply", "-auto-approve")
	reconcileFile := filepath.Join(t.TempDir(), "reconcile.hcl")
	clitest.WriteFile(t, reconcileFile, `
workspace "prod" {
  dir      = "`+p.dir+`"
  interval = "1s"
}
`)
	stdout, stderr := serveControlPlane(t, p, "-reconcile", reconcileFile)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	url := clitest.WaitFor(t, "web view address", stdout, regexp.MustCompile(`Web view on (http://\S+/)`))[1]

	script := exec.CommandContext(ctx, node, filepath.Join(webDir, "e2e", "live.mjs"))
	script.Dir = webDir
	script.Env = append(os.Environ(), "TERRANE_URL="+url, "TERRANE_TOKEN=full-secret", "TERRANE_OTHER_TOKEN=other-secret")
	var scriptErr clitest.SyncBuffer
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

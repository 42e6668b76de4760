package command

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/workdir"
)

// serveControlPlane runs `terrane serve` over p's store with the web view
// and two tokens, full-secret and other-secret (for the tenancy other/*),
// until the test ends.
func serveControlPlane(t *testing.T, p *e2eProject, args ...string) (stdout, stderr *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	args = append([]string{"-listen", "127.0.0.1:0", "-backend", "sqlite://" + workdir.StatePath(p.dir),
		"-token", "full-secret", "-token", "other-secret@other/*", "-ui", "-ui-listen", "127.0.0.1:0"}, args...)
	go func() { done <- serveUntil(ctx, args, stdout, stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop")
		}
	})
	return stdout, stderr
}

// selfSignedCert writes a certificate for 127.0.0.1 and its key, and
// returns their paths and a pool trusting the certificate.
func selfSignedCert(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "terrane test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	writeFile(t, certFile, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})))
	writeFile(t, keyFile, string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})))
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// The control plane over TLS with tokens: the reconciler of `serve
// -reconcile` refreshes on start and then only on demand (POST
// /api/refresh, the web view's "Refresh now"); `terrane status` and
// `terrane watch` against the served store show the conditions it
// records, InSync and then Drifted with the attribute that differs; the
// web view speaks only TLS; and a token for another tenancy sees nothing.
func TestStatusAndWatchShowTheReconcilersConditions(t *testing.T) {
	p := newE2EProject(t, webViewConfig)
	p.mustRun("apply", "-auto-approve")
	certFile, keyFile, pool := selfSignedCert(t)
	reconcileFile := filepath.Join(t.TempDir(), "reconcile.hcl")
	writeFile(t, reconcileFile, "workspace \"prod\" {\n  dir      = \""+p.dir+"\"\n  interval = \"1h\"\n}\n")

	stdout, stderr := serveControlPlane(t, p, "-tls-cert", certFile, "-tls-key", keyFile, "-reconcile", reconcileFile)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	addr := waitFor(t, "store address", stdout, regexp.MustCompile(`serving \S+ on (\S+)`))[1]
	ui := waitFor(t, "web view address", stdout, regexp.MustCompile(`Web view on (https://(\S+))/`))
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

	watchOut, watchErr := &syncBuffer{}, &syncBuffer{}
	humanOut, humanErr := &syncBuffer{}, &syncBuffer{}
	watchDone := make(chan int, 2)
	go func() { watchDone <- watchUntil(ctx, append([]string{"-json"}, remote...), watchOut, watchErr) }()
	go func() { watchDone <- watchUntil(ctx, remote, humanOut, humanErr) }()
	waitFor(t, "watch snapshot", watchOut, regexp.MustCompile(`end_of_snapshot`))
	waitFor(t, "watch snapshot", humanOut, regexp.MustCompile(`end of snapshot`))

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
	waitFor(t, "watch shows web Drifted", watchOut, drifted)
	waitFor(t, "watch prints web Drifted", humanOut, regexp.MustCompile(
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
	cancel()
	for range 2 {
		if code := <-watchDone; code != 0 {
			t.Errorf("watch exited %d: %s%s", code, watchErr.String(), humanErr.String())
		}
	}
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

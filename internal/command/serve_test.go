package command

import (
	"context"
	"encoding/base64"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store/remote"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// startServe runs `terrane serve` on a fresh SQLite store and returns its address.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr := &clitest.SyncBuffer{}, &clitest.SyncBuffer{}
	done := make(chan int, 1)
	dbPath := filepath.Join(t.TempDir(), "state.db")
	args = append([]string{"-listen", "127.0.0.1:0", "-backend", "sqlite://" + dbPath}, args...)
	go func() { done <- serveUntil(ctx, args, stdout, stderr) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited with %d: %s", code, stderr.String())
		}
	})
	return clitest.WaitFor(t, "serve start", stdout, regexp.MustCompile(`serving \S+ on (\S+)`))[1]
}

func TestServeAndWatchRedactSensitiveValues(t *testing.T) {
	t.Parallel()
	addr := startServe(t, "-token", "s3cret")
	backend, err := remote.Dial(remote.Config{Address: addr, Token: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Close()
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		t.Fatal(err)
	}
	service := resourceservice.New(backend, registry)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stdout, stderr := &clitest.SyncBuffer{}, &clitest.SyncBuffer{}
	watchDone := make(chan int, 1)
	go func() {
		watchDone <- watchUntil(ctx, []string{"-address", addr, "-token", "s3cret", "-tenancy", "proj/prod", "-json"}, stdout, stderr)
	}()
	clitest.WaitFor(t, "snapshot end", stdout, regexp.MustCompile(`end_of_snapshot`))

	ws := clitest.WriteRecord(t, service, records.WorkspaceID("proj", "prod"), nil, &recordsv1.Workspace{})
	clitest.WriteRecord(t, service, records.InstanceID("proj", "prod", "db_instance.main"), ws.GetId(), &recordsv1.ResourceInstance{
		Mode: recordsv1.ResourceMode_RESOURCE_MODE_MANAGED, Type: "db_instance", Name: "main",
		Provider: `provider["registry.terraform.io/example/db"]`,
		Current: &recordsv1.ObjectState{
			AttributesJson: []byte(`{"id":"db-1","password":"hunter2"}`),
			SensitivePaths: []*recordsv1.AttributePath{{Steps: []*recordsv1.AttributePath_Step{{Selector: &recordsv1.AttributePath_Step_AttributeName{AttributeName: "password"}}}}},
			Private:        []byte("private-token-xyz"),
		},
	})
	clitest.WaitFor(t, "instance event", stdout, regexp.MustCompile(`"name":"db_instance.main".*"id":"db-1"`))
	for _, secret := range []string{"hunter2", "private-token-xyz", base64Of("private-token-xyz")} {
		if strings.Contains(stdout.String(), secret) {
			t.Fatalf("watch output leaks %q:\n%s", secret, stdout.String())
		}
	}
	if !strings.Contains(stdout.String(), `"password":"(sensitive value)"`) {
		t.Fatalf("watch output does not show the redacted password:\n%s", stdout.String())
	}
	cancel()
	if code := <-watchDone; code != 0 {
		t.Fatalf("watch exited %d: %s", code, stderr.String())
	}
}

func TestWatchReportsRejectedToken(t *testing.T) {
	t.Parallel()
	addr := startServe(t, "-token", "s3cret")
	stdout, stderr := &clitest.SyncBuffer{}, &clitest.SyncBuffer{}
	if code := watchUntil(t.Context(), []string{"-address", addr, "-token", "wrong"}, stdout, stderr); code != 1 {
		t.Fatalf("watch with a wrong token exited %d", code)
	}
	if !strings.Contains(stderr.String(), "PermissionDenied") {
		t.Fatalf("error does not say the token was refused: %s", stderr.String())
	}
}

func TestServeRejectsBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-backend", "mysql://x"},
		{"-tls-cert", "only-cert.pem"},
		{"-token", "x@no-slash"},
	} {
		stderr := &clitest.SyncBuffer{}
		if code := serveUntil(t.Context(), append([]string{"-listen", "127.0.0.1:0"}, args...), &clitest.SyncBuffer{}, stderr); code != 1 {
			t.Errorf("serve %v exited %d, want 1", args, code)
		}
		if !strings.Contains(stderr.String(), "Error:") {
			t.Errorf("serve %v printed no error: %q", args, stderr.String())
		}
	}
}

func base64Of(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

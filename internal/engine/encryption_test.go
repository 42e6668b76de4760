package engine

import (
	"net"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/builtin/remotestate"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/encrypted"
	"github.com/terrane/terrane/internal/store/etcd"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/store/remote"
	"github.com/terrane/terrane/internal/testing/atrest"
	"github.com/terrane/terrane/internal/workdir"
)

const (
	etcdSecret      = "s3cr3t-Kp77-in-etcd"
	etcdDescription = "plain-Jm05-in-etcd"
)

// testEncryption is a pbkdf2 and aes_gcm encryption with the given
// targets, configured as TF_ENCRYPTION would configure it.
func testEncryption(t *testing.T, targets string) *encryption.Encryption {
	t.Helper()
	enc, diags := encryption.New(encryption.Options{Env: `
key_provider "pbkdf2" "main" {
  passphrase = "a passphrase for etcd and serve"
  iterations = 200000
}
method "aes_gcm" "main" { keys = key_provider.pbkdf2.main }
` + targets})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return enc
}

// stateCipher is the record cipher of a state target.
func stateCipher(t *testing.T) *encryption.RecordCipher {
	t.Helper()
	return encryption.NewRecordCipher(testEncryption(t, `state { method = method.aes_gcm.main }`).State())
}

// useStore points the harness at backend, wrapped by cipher unless nil.
func (h *harness) useStore(backend store.Backend, cipher encrypted.Cipher) {
	h.t.Helper()
	if cipher != nil {
		backend = encrypted.New(backend, cipher)
	}
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		h.t.Fatal(err)
	}
	h.store = recordstore.New(resourceservice.New(backend, registry), "proj", "default")
}

// applySecrets applies, updates and partly destroys instances holding the
// secrets, so that intents, results, deposed objects and deletes all pass
// through the store.
func (h *harness) applySecrets() {
	h.t.Helper()
	h.config(`
variable "secret" {
  type      = string
  sensitive = true
  default   = "` + etcdSecret + `"
}
resource "tpf_thing" "x" {
  count       = 4
  name        = "x-${count.index}"
  secret      = var.secret
  description = "` + etcdDescription + `"
  lifecycle {
    create_before_destroy = true
  }
}
output "secret" {
  value     = tpf_thing.x[0].secret
  sensitive = true
}`)
	h.apply(h.plan(PlanOpts{}))
	h.config(`
variable "secret" {
  type      = string
  sensitive = true
  default   = "` + etcdSecret + `"
}
resource "tpf_thing" "x" {
  count       = 3
  name        = "x-${count.index}-v2"
  secret      = var.secret
  description = "` + etcdDescription + `"
  lifecycle {
    create_before_destroy = true
  }
}`)
	h.apply(h.plan(PlanOpts{}))
}

// dirHolds reports which of secrets some file under dir holds in clear.
func dirHolds(t *testing.T, dir string, secrets ...string) []string {
	t.Helper()
	found := atrest.Search(t, dir, secrets...)
	var out []string
	for _, secret := range secrets {
		if len(found[secret]) > 0 {
			out = append(out, secret)
		}
	}
	return out
}

// serveEtcd runs `terrane serve`'s gRPC services over an etcd backend on
// loopback and returns a client of it.
func serveEtcd(t *testing.T, server *etcdtest.Server) store.Backend {
	t.Helper()
	served, err := etcd.Open([]string{server.Endpoint}, etcd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = served.Close() })
	tokens, err := resourceservice.ParseTokens([]string{"token"})
	if err != nil {
		t.Fatal(err)
	}
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		t.Fatal(err)
	}
	grpcServer := resourceservice.NewGRPCServer(resourceservice.New(served, registry), tokens, resourceservice.ServerOptions{})
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = grpcServer.Serve(listener) }()
	t.Cleanup(grpcServer.Stop)
	client, err := remote.Dial(remote.Config{Address: listener.Addr().String(), Token: "token"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client
}

// TestEncryptedApplyLeavesNoSecretInEtcd applies with the state encrypted
// on etcd, directly and through a serve in front of etcd, then stops etcd
// and searches its data directory (write-ahead log and database, every
// revision etcd keeps) for the secrets. Without encryption the same
// search finds them.
func TestEncryptedApplyLeavesNoSecretInEtcd(t *testing.T) {
	for _, tc := range []struct {
		name      string
		encrypt   bool
		viaServe  bool
		wantFound bool
	}{
		{"plain", false, false, true},
		{"encrypted", true, false, false},
		{"encrypted via serve", true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server := etcdtest.Start(t)
			var backend store.Backend
			if tc.viaServe {
				backend = serveEtcd(t, server)
			} else {
				direct, err := etcd.Open([]string{server.Endpoint}, etcd.Options{})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = direct.Close() })
				backend = direct
			}
			var cipher encrypted.Cipher
			if tc.encrypt {
				cipher = stateCipher(t)
			}
			h := newHarness(t)
			h.useStore(backend, cipher)
			h.applySecrets()
			if got := h.instances(); len(got) != 3 {
				t.Fatalf("after the applies the state holds %v", got)
			}
			server.Stop()
			found := dirHolds(t, server.DataDir(), etcdSecret, etcdDescription)
			switch {
			case tc.wantFound && len(found) != 2:
				t.Fatalf("etcd's data directory lacks the unencrypted secrets (found %v): the search cannot fail", found)
			case !tc.wantFound && len(found) > 0:
				t.Fatalf("etcd's data directory holds %v in clear", found)
			}
			if !tc.wantFound && len(dirHolds(t, server.DataDir(), "tpf_thing.x[1]")) == 0 {
				t.Errorf("record names are not readable in etcd")
			}
		})
	}
}

// TestRemoteStateDecryptsAnotherWorkspace reads the encrypted outputs of
// another workspace through terraform_remote_state's terrane backend with
// the remote_state_data_sources target, and refuses them, by record and
// key provider, without it.
func TestRemoteStateDecryptsAnotherWorkspace(t *testing.T) {
	h := newHarness(t)
	workdirDir := t.TempDir()
	network, closeNetwork, err := workdir.OpenStore(workdirDir, "proj", "network", stateCipher(t))
	if err != nil {
		t.Fatal(err)
	}
	err = network.WriteOutputs(t.Context(), map[string]*states.OutputValue{"vpc_id": {Value: cty.StringVal("vpc-encrypted")}})
	_ = closeNetwork()
	if err != nil {
		t.Fatal(err)
	}
	h.config(`
data "terraform_remote_state" "network" {
  backend   = "terrane"
  workspace = "network"
}
resource "tpf_thing" "x" {
  name = data.terraform_remote_state.network.outputs.vpc_id
}`)
	h.remoteState = &remotestate.DataSource{OpenWorkspace: remotestate.WorkingDirWorkspaces(workdirDir), Project: "proj"}
	_, ds := h.engine(nil).Plan(t.Context(), PlanOpts{})
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), `workspace record "network"`) || !strings.Contains(ds.Err().Error(), "encrypts no state") {
		t.Fatalf("reading an encrypted workspace without a remote state target: %v", ds.Err())
	}
	h.remoteState.Encryption = testEncryption(t, `remote_state_data_sources {
  remote_state_data_source "network" { method = method.aes_gcm.main }
}`)
	h.apply(h.plan(PlanOpts{}))
	if got := h.recorded("tpf_thing.x", "name"); got != "vpc-encrypted" {
		t.Errorf("tpf_thing.x name = %q, want the other workspace's decrypted output", got)
	}
}

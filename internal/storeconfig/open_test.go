package storeconfig

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"strings"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/tlstest"
	"github.com/terrane/terrane/proto/pbresource"
)

// TestOpenEtcdWithClientCertificateAndAuth opens a real etcd that requires
// a client certificate and has etcd's authentication on, with the backend
// arguments naming the CA, the certificate and key, and a user and
// password; each missing or wrong credential is refused.
func TestOpenEtcdWithClientCertificateAndAuth(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := tlstest.WriteCertificate(t, dir)
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	pem, _ := os.ReadFile(certFile)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	server := etcdtest.StartTLS(t, certFile, keyFile, certFile, &tls.Config{Certificates: []tls.Certificate{pair}, RootCAs: pool})
	enableAuth(t, server.Client(t))

	good := Settings{Endpoints: []string{server.Endpoint}, CAFile: certFile, CertFile: certFile, KeyFile: keyFile, Username: "terrane", Password: "pw"}
	backend, err := Open(dir, good, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := &pbresource.Resource{Id: &pbresource.ID{Type: &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "Workspace"},
		Tenancy: &pbresource.Tenancy{Partition: "p", Namespace: "w"}, Name: "w", Uid: "u"}}
	if _, err := backend.WriteCAS(t.Context(), res); err != nil {
		t.Fatalf("write with every credential: %v", err)
	}
	_ = backend.Close()

	for name, s := range map[string]Settings{
		"wrong password":        good.Merge(Settings{Password: "nope"}),
		"no client certificate": {Endpoints: good.Endpoints, CAFile: certFile, Username: "terrane", Password: "pw"},
	} {
		backend, err := Open(dir, s, nil)
		if err == nil {
			_, err = backend.Read(t.Context(), store.StrongConsistency, res.Id)
			_ = backend.Close()
		}
		if err == nil {
			t.Errorf("%s: the store was read", name)
		}
	}
	if _, err := Open(dir, Settings{Endpoints: []string{"etcd.example.com:2379"}, Password: "pw"}, nil); err == nil || !strings.Contains(err.Error(), "clear text") {
		t.Errorf("a password for a remote etcd without TLS: %v, want a refusal", err)
	}
}

// enableAuth turns etcd's authentication on with a user "terrane" (password
// "pw") allowed to read and write Terrane's keys.
func enableAuth(t *testing.T, client *clientv3.Client) {
	t.Helper()
	ctx := t.Context()
	steps := []func() error{
		func() error { _, err := client.UserAdd(ctx, "root", "rootpw"); return err },
		func() error { _, err := client.UserGrantRole(ctx, "root", "root"); return err },
		func() error { _, err := client.RoleAdd(ctx, "terrane"); return err },
		func() error {
			_, err := client.RoleGrantPermission(ctx, "terrane", DefaultPrefix, clientv3.GetPrefixRangeEnd(DefaultPrefix), clientv3.PermissionType(clientv3.PermReadWrite))
			return err
		},
		func() error { _, err := client.UserAdd(ctx, "terrane", "pw"); return err },
		func() error { _, err := client.UserGrantRole(ctx, "terrane", "terrane"); return err },
		func() error { _, err := client.AuthEnable(ctx); return err },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
}

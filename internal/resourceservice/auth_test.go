package resourceservice_test

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/terrane/terrane/internal/testing/tlstest"
	"github.com/terrane/terrane/proto/pbresource"
)

func TestTokenAuthorization(t *testing.T) {
	f := newFixture(t, fixtureOptions{tokens: []string{"admin-secret", "prod-secret@proj/prod"}})
	admin := withToken(ctxFor(t), "admin-secret")
	scoped := withToken(ctxFor(t), "prod-secret")
	devTenancy := &pbresource.Tenancy{Partition: "proj", Namespace: "dev"}
	devTrack := newResource(t, &pbresource.ID{Type: trackType, Tenancy: devTenancy, Name: "d"}, "dev")

	_, err := f.client.Write(ctxFor(t), &pbresource.WriteRequest{Resource: newResource(t, newID(trackType, "a"), "a")})
	expectCode(t, "write without a token", err, codes.Unauthenticated)
	_, err = f.client.Read(withToken(ctxFor(t), "guess"), &pbresource.ReadRequest{Id: newID(trackType, "a")})
	expectCode(t, "read with an unknown token", err, codes.PermissionDenied)
	_, err = f.client.Write(scoped, &pbresource.WriteRequest{Resource: devTrack})
	expectCode(t, "scoped token writing another tenancy", err, codes.PermissionDenied)
	_, err = f.client.List(scoped, &pbresource.ListRequest{Type: trackType, Tenancy: devTenancy})
	expectCode(t, "scoped token listing another tenancy", err, codes.PermissionDenied)

	if _, err := f.client.Write(admin, &pbresource.WriteRequest{Resource: devTrack}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.client.Write(scoped, &pbresource.WriteRequest{Resource: newResource(t, newID(trackType, "p"), "prod")}); err != nil {
		t.Fatal(err)
	}
	wildcard := &pbresource.Tenancy{Partition: "*", Namespace: "*"}
	list, err := f.client.List(scoped, &pbresource.ListRequest{Type: trackType, Tenancy: wildcard})
	if err != nil || len(list.GetResources()) != 1 || list.GetResources()[0].GetId().GetName() != "p" {
		t.Fatalf("scoped wildcard list returned %v (%v); want only its own tenancy", list.GetResources(), err)
	}
	stream, err := f.client.WatchList(scoped, &pbresource.WatchListRequest{Type: trackType, Tenancy: wildcard})
	if err != nil {
		t.Fatal(err)
	}
	if first, err := stream.Recv(); err != nil || first.GetUpsert().GetResource().GetId().GetName() != "p" {
		t.Fatalf("scoped watch first event %v (%v)", first, err)
	}
	if end, err := stream.Recv(); err != nil || end.GetEndOfSnapshot() == nil {
		t.Fatalf("scoped watch saw another tenancy: %v (%v)", end, err)
	}
}

func TestTLSListener(t *testing.T) {
	certFile, keyFile := tlstest.WriteCertificate(t, t.TempDir())
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	pem, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	f := newFixture(t, fixtureOptions{
		serverTLS: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		clientTLS: &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12},
	})
	f.write(t, newResource(t, newID(trackType, "secure"), "ok"))

	// A plaintext client cannot talk to the TLS listener.
	if _, err := dialPlain(t, f.addr).Read(ctxFor(t), &pbresource.ReadRequest{Id: newID(trackType, "secure")}); err == nil {
		t.Fatal("plaintext client read from a TLS listener")
	}
}

func dialPlain(t *testing.T, addr string) pbresource.ResourceServiceClient {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return pbresource.NewResourceServiceClient(conn)
}

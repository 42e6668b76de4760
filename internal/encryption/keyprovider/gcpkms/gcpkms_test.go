package gcpkms_test

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"cloud.google.com/go/kms/apiv1/kmspb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/encryption/keyprovider/gcpkms"
)

// standIn is a loopback Cloud KMS: it encrypts with AES-GCM under its own
// master key, binding the key name, so a ciphertext decrypts only under
// the key that made it.
type standIn struct {
	kmspb.UnimplementedKeyManagementServiceServer
	gcm      cipher.AEAD
	encrypts atomic.Int64
}

func (s *standIn) Encrypt(_ context.Context, req *kmspb.EncryptRequest) (*kmspb.EncryptResponse, error) {
	s.encrypts.Add(1)
	nonce := make([]byte, s.gcm.NonceSize())
	_, _ = rand.Read(nonce)
	return &kmspb.EncryptResponse{Name: req.GetName(), Ciphertext: s.gcm.Seal(nonce, nonce, req.GetPlaintext(), []byte(req.GetName()))}, nil
}

func (s *standIn) Decrypt(_ context.Context, req *kmspb.DecryptRequest) (*kmspb.DecryptResponse, error) {
	data := req.GetCiphertext()
	if len(data) < s.gcm.NonceSize() {
		return nil, status.Error(codes.InvalidArgument, "ciphertext too short")
	}
	plain, err := s.gcm.Open(nil, data[:s.gcm.NonceSize()], data[s.gcm.NonceSize():], []byte(req.GetName()))
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, "Decryption failed: the ciphertext is invalid.")
	}
	return &kmspb.DecryptResponse{Plaintext: plain}, nil
}

func startStandIn(t *testing.T) *standIn {
	t.Helper()
	master := make([]byte, 32)
	_, _ = rand.Read(master)
	block, _ := aes.NewCipher(master)
	gcm, _ := cipher.NewGCM(block)
	s := &standIn{gcm: gcm}
	server := grpc.NewServer()
	kmspb.RegisterKeyManagementServiceServer(server, s)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	gcpkms.UseStandIn(t, listener.Addr().String())
	return s
}

func target(t *testing.T, keyName string) *encryption.Target {
	t.Helper()
	enc, diags := encryption.New(encryption.Options{Env: `
key_provider "gcp_kms" "k" {
  kms_encryption_key = "` + keyName + `"
  key_length         = 32
}
method "aes_gcm" "m" { keys = key_provider.gcp_kms.k }
state { method = method.aes_gcm.m }
`})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return enc.State()
}

func TestGCPKMSAgainstStandIn(t *testing.T) {
	s := startStandIn(t)
	const key = "projects/p/locations/global/keyRings/r/cryptoKeys/state"
	env, err := target(t, key).Encrypt(context.Background(), []byte("hunter2"))
	if err != nil {
		t.Fatal(err)
	}
	if s.encrypts.Load() != 1 || len(env.Meta["key_provider.gcp_kms.k"]) == 0 {
		t.Fatalf("KMS encrypted %d keys; metadata %v", s.encrypts.Load(), env.Meta)
	}
	plain, _, err := target(t, key).Decrypt(context.Background(), env)
	if err != nil || string(plain) != "hunter2" {
		t.Fatalf("another run decrypting: %q, %v", plain, err)
	}
	_, _, err = target(t, key+"-other").Decrypt(context.Background(), env)
	if err == nil || !strings.Contains(err.Error(), "Decryption failed") || !strings.Contains(err.Error(), "key_provider.gcp_kms.k") {
		t.Fatalf("decrypting under another key: %v", err)
	}
}

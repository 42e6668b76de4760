package openbao_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/terrane/terrane/internal/encryption"
)

// transitStandIn answers OpenBao Transit's datakey and decrypt calls on a
// loopback HTTP server. Its "wrapped" keys are opaque handles into its
// own memory, each usable only with the key name that made it.
func transitStandIn(t *testing.T, token string) (*httptest.Server, *[]string) {
	t.Helper()
	var mu sync.Mutex
	wrapped := map[string][]byte{}
	var calls []string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, r.Method+" "+r.URL.Path)
		if r.Header.Get("X-Vault-Token") != token {
			w.WriteHeader(http.StatusForbidden)
			_ = json.NewEncoder(w).Encode(map[string][]string{"errors": {"permission denied"}})
			return
		}
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		switch {
		case strings.HasPrefix(r.URL.Path, "/v1/transit/datakey/plaintext/"):
			key := make([]byte, int(body["bits"].(float64))/8)
			_, _ = rand.Read(key)
			handle := "vault:v1:" + strings.TrimPrefix(r.URL.Path, "/v1/transit/datakey/plaintext/") + ":" + base64.StdEncoding.EncodeToString(key[:4])
			wrapped[handle] = key
			_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]string{"plaintext": base64.StdEncoding.EncodeToString(key), "ciphertext": handle}})
		case strings.HasPrefix(r.URL.Path, "/v1/transit/decrypt/"):
			handle, _ := body["ciphertext"].(string)
			key, ok := wrapped[handle]
			if !ok || !strings.HasPrefix(handle, "vault:v1:"+strings.TrimPrefix(r.URL.Path, "/v1/transit/decrypt/")+":") {
				w.WriteHeader(http.StatusBadRequest)
				_ = json.NewEncoder(w).Encode(map[string][]string{"errors": {"invalid ciphertext: unable to decrypt"}})
				return
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]string{"plaintext": base64.StdEncoding.EncodeToString(key)}})
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(server.Close)
	return server, &calls
}

func target(t *testing.T, address, keyName, token string) *encryption.Target {
	t.Helper()
	enc, diags := encryption.New(encryption.Options{Env: `
key_provider "openbao" "k" {
  address  = "` + address + `"
  key_name = "` + keyName + `"
  token    = "` + token + `"
}
method "aes_gcm" "m" { keys = key_provider.openbao.k }
state { method = method.aes_gcm.m }
`})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return enc.State()
}

func TestOpenBaoAgainstStandIn(t *testing.T) {
	server, calls := transitStandIn(t, "s.token")
	env, err := target(t, server.URL, "state", "s.token").Encrypt(context.Background(), []byte("hunter2"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Ciphertext []byte `json:"ciphertext"`
	}
	if err := json.Unmarshal(env.Meta["key_provider.openbao.k"], &meta); err != nil || !strings.HasPrefix(string(meta.Ciphertext), "vault:v1:state:") {
		t.Fatalf("stored metadata %s: %v", env.Meta["key_provider.openbao.k"], err)
	}
	plain, _, err := target(t, server.URL, "state", "s.token").Decrypt(context.Background(), env)
	if err != nil || string(plain) != "hunter2" {
		t.Fatalf("another run decrypting: %q, %v", plain, err)
	}
	if got := strings.Join(*calls, ", "); got != "POST /v1/transit/datakey/plaintext/state, POST /v1/transit/decrypt/state" {
		t.Errorf("calls: %s", got)
	}
	for name, tc := range map[string]struct{ key, token, want string }{
		"other key": {"other", "s.token", "invalid ciphertext"},
		"bad token": {"state", "wrong", "permission denied"},
	} {
		_, _, err := target(t, server.URL, tc.key, tc.token).Decrypt(context.Background(), env)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "key_provider.openbao.k") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestOpenBaoConfigurationIsValidated(t *testing.T) {
	_, diags := encryption.New(encryption.Options{Env: `
key_provider "openbao" "k" {
  key_name   = "state"
  key_length = 24
}`})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "16, 32 or 64") {
		t.Fatalf("a 24-byte key length: %v", diags)
	}
}

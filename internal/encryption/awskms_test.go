package encryption

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// awsKMSStandIn answers the two KMS calls the aws_kms key provider makes,
// in KMS's JSON protocol, as a loopback HTTP server.
func awsKMSStandIn(t *testing.T, s *sealer) *httptest.Server {
	t.Helper()
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			KeyId          string
			KeySpec        string
			CiphertextBlob []byte
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		switch target := r.Header.Get("X-Amz-Target"); target {
		case "TrentService.GenerateDataKey":
			s.count("GenerateDataKey")
			n := map[string]int{"AES_256": 32, "AES_128": 16}[req.KeySpec]
			key := newDataKey(n)
			_ = json.NewEncoder(w).Encode(map[string]any{"KeyId": req.KeyId, "Plaintext": key, "CiphertextBlob": s.wrap(req.KeyId, key)})
		case "TrentService.Decrypt":
			s.count("Decrypt")
			key, err := s.unwrap(req.KeyId, req.CiphertextBlob)
			if err != nil {
				w.Header().Set("X-Amzn-ErrorType", "IncorrectKeyException")
				w.WriteHeader(http.StatusBadRequest)
				_ = json.NewEncoder(w).Encode(map[string]string{"__type": "IncorrectKeyException", "message": "The key ID in the request does not identify a CMK that can perform this operation."})
				return
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"KeyId": req.KeyId, "Plaintext": key, "EncryptionAlgorithm": "SYMMETRIC_DEFAULT"})
		default:
			t.Errorf("the stand-in KMS got an unexpected call %q", target)
			w.WriteHeader(http.StatusBadRequest)
		}
	}))
	t.Cleanup(server.Close)
	return server
}

func awsKMSConfig(keyID string) string {
	return `
key_provider "aws_kms" "k" {
  kms_key_id                  = "` + keyID + `"
  key_spec                    = "AES_256"
  region                      = "us-east-1"
  access_key                  = "AKIDEXAMPLE"
  secret_key                  = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
}
method "aes_gcm" "m" { keys = key_provider.aws_kms.k }
state { method = method.aes_gcm.m }
`
}

func TestAWSKMSAgainstStandIn(t *testing.T) {
	s := newSealer(t)
	server := awsKMSStandIn(t, s)
	t.Setenv("AWS_ENDPOINT_URL_KMS", server.URL)
	writer := mustNew(t, awsKMSConfig("alias/state"), nil)
	env := roundTrip(t, writer.State(), secret)
	roundTrip(t, writer.State(), secret)
	if s.called("GenerateDataKey") != 1 {
		t.Errorf("one process asked KMS for %d data keys, want 1", s.called("GenerateDataKey"))
	}
	var meta struct {
		CiphertextBlob []byte `json:"ciphertext_blob"`
	}
	if err := json.Unmarshal(env.Meta["key_provider.aws_kms.k"], &meta); err != nil || len(meta.CiphertextBlob) == 0 {
		t.Fatalf("stored metadata %s: %v", env.Meta["key_provider.aws_kms.k"], err)
	}
	reader := mustNew(t, awsKMSConfig("alias/state"), nil)
	if plain, _, err := reader.State().Decrypt(context.Background(), env); err != nil || string(plain) != secret {
		t.Fatalf("another run decrypting: %q, %v", plain, err)
	}
	// Decrypting names the key, so another key cannot unwrap the data key.
	other := mustNew(t, awsKMSConfig("alias/other"), nil)
	_, _, err := other.State().Decrypt(context.Background(), env)
	if err == nil || !strings.Contains(err.Error(), "IncorrectKeyException") || !strings.Contains(err.Error(), "key_provider.aws_kms.k") {
		t.Fatalf("decrypting under another KMS key: %v", err)
	}
}

func TestAWSKMSConfigurationIsValidated(t *testing.T) {
	for name, tc := range map[string]struct{ body, want string }{
		"bad key spec": {`key_provider "aws_kms" "k" {
  kms_key_id = "alias/x"
  key_spec   = "RSA_2048"
  region     = "us-east-1"
}`, `invalid key_spec "RSA_2048"`},
		"missing key id": {`key_provider "aws_kms" "k" { key_spec = "AES_256" }`, `"kms_key_id" is required`},
		"unknown argument": {`key_provider "aws_kms" "k" {
  kms_key_id = "alias/x"
  key_spec   = "AES_256"
  bucket     = "x"
}`, "Unsupported argument"},
		"no region": {`key_provider "aws_kms" "k" {
  kms_key_id = "alias/x"
  key_spec   = "AES_256"
}`, "AWS_REGION"},
		"short assume_role duration": {`key_provider "aws_kms" "k" {
  kms_key_id  = "alias/x"
  key_spec    = "AES_256"
  region      = "us-east-1"
  assume_role = { role_arn = "arn:aws:iam::123456789012:role/x", duration = "1m" }
}`, "between 15m and 12h"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("AWS_REGION", "")
			t.Setenv("AWS_DEFAULT_REGION", "")
			_, diags := newFromHCL(t, tc.body, nil)
			if !diags.HasErrors() || !strings.Contains(allDiags(diags), tc.want) {
				t.Fatalf("want an error containing %q, got %v", tc.want, allDiags(diags))
			}
		})
	}
}

func TestGCPKMSConfigurationIsValidated(t *testing.T) {
	for name, tc := range map[string]struct{ body, want string }{
		"key too long": {`key_provider "gcp_kms" "k" {
  kms_encryption_key = "projects/p/locations/l/keyRings/r/cryptoKeys/k"
  key_length         = 2048
}`, "from 1 to 1024 bytes"},
		"missing key length": {`key_provider "gcp_kms" "k" { kms_encryption_key = "projects/p/locations/l/keyRings/r/cryptoKeys/k" }`, `"key_length" is required`},
		"credentials not JSON": {`key_provider "gcp_kms" "k" {
  kms_encryption_key = "projects/p/locations/l/keyRings/r/cryptoKeys/k"
  key_length         = 32
  credentials        = "not json and no such file"
}`, "neither valid JSON nor the path of a file"},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := newFromHCL(t, tc.body, nil)
			if !diags.HasErrors() || !strings.Contains(allDiags(diags), tc.want) {
				t.Fatalf("want an error containing %q, got %v", tc.want, allDiags(diags))
			}
		})
	}
}

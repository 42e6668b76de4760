package encryption

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

const plainStateFile = `{"version":4,"terraform_version":"0.1.0","serial":0,"lineage":"lineage-1","outputs":{},"resources":[{"instances":[{"attributes":{"secret":"` + secret + `"}}]}]}`

func TestStateFileRoundTrip(t *testing.T) {
	ctx := context.Background()
	enc := mustNew(t, pbkdf2Config("main", "a passphrase of some length")+`state { method = method.aes_gcm.main }`, nil)
	sealed, err := EncryptStateFile(ctx, enc.State(), []byte(plainStateFile))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte(secret)) || !IsEncryptedFile(sealed) {
		t.Fatalf("not an encrypted state file: %s", sealed)
	}
	// OpenTofu's envelope: serial and lineage readable, even a zero serial.
	var envelope map[string]json.RawMessage
	if err := json.Unmarshal(sealed, &envelope); err != nil {
		t.Fatal(err)
	}
	if string(envelope["serial"]) != "0" || string(envelope["lineage"]) != `"lineage-1"` || string(envelope["encryption_version"]) != `"v0"` ||
		!bytes.Contains(envelope["meta"], []byte(`"key_provider.pbkdf2.main"`)) {
		t.Errorf("envelope: %s", sealed)
	}
	plain, err := DecryptStateFile(ctx, enc.State(), sealed, false)
	if err != nil || string(plain) != plainStateFile {
		t.Fatalf("decrypting: %v\n%s", err, plain)
	}

	tampered := bytes.Replace(sealed, []byte(`"lineage":"lineage-1"`), []byte(`"lineage":"lineage-2"`), 1)
	if _, err := DecryptStateFile(ctx, enc.State(), tampered, false); err == nil || !strings.Contains(err.Error(), "tampered") {
		t.Errorf("a file whose envelope shows another lineage was read: %v", err)
	}
	if _, err := EncryptStateFile(ctx, enc.State(), []byte("not json")); err == nil {
		t.Errorf("data that is not a state file was encrypted")
	}
}

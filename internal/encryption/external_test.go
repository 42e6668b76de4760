package encryption

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// externalProgramEnv makes the test binary act as an external method
// program (see TestMain): "encrypt" or "decrypt".
const externalProgramEnv = "TERRANE_TEST_EXTERNAL_METHOD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(externalProgramEnv); mode != "" {
		os.Exit(runExternalMethod(mode))
	}
	os.Exit(m.Run())
}

// runExternalMethod is a toy external method: it XORs the payload with
// the key, prefixed by a marker so decryption can tell its own output.
func runExternalMethod(mode string) int {
	fmt.Println(`{"magic":"OpenTofu-External-Encryption-Method","version":1}`)
	raw, _ := io.ReadAll(os.Stdin)
	var in struct {
		Key     []byte `json:"key"`
		Payload []byte `json:"payload"`
	}
	if err := json.Unmarshal(raw, &in); err != nil || len(in.Key) == 0 {
		fmt.Fprintln(os.Stderr, "bad input or no key:", err)
		return 1
	}
	payload := in.Payload
	if mode == "decrypt" {
		if !strings.HasPrefix(string(payload), "XOR:") {
			fmt.Fprintln(os.Stderr, "not my ciphertext")
			return 2
		}
		payload = payload[4:]
	}
	out := make([]byte, len(payload))
	for i, b := range payload {
		out[i] = b ^ in.Key[i%len(in.Key)]
	}
	if mode == "encrypt" {
		out = append([]byte("XOR:"), out...)
	}
	encoded, _ := json.Marshal(map[string][]byte{"payload": out})
	fmt.Println(string(encoded))
	return 0
}

// writeKeyProgram writes an external key provider like OpenTofu's
// documented example: a fixed key, and its input logged to inputLog.
func writeKeyProgram(t *testing.T, dir, inputLog string) string {
	t.Helper()
	key := base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))
	script := `#!/bin/sh
set -e
echo '{"magic":"OpenTofu-External-Key-Provider","version":1}'
INPUT=$(cat)
printf '%s\n' "$INPUT" >> ` + inputLog + `
if [ "$INPUT" = "null" ]; then
  echo '{"keys":{"encryption_key":"` + key + `"},"meta":{"external_data":{"version":"7"}}}'
else
  echo '{"keys":{"encryption_key":"` + key + `","decryption_key":"` + key + `"},"meta":{"external_data":{"version":"7"}}}'
fi
`
	path := filepath.Join(dir, "key-program")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExternalKeyProvider(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "inputs")
	program := writeKeyProgram(t, dir, log)
	enc := mustNew(t, `
key_provider "external" "k" { command = ["`+program+`"] }
method "aes_gcm" "m" { keys = key_provider.external.k }
state { method = method.aes_gcm.m }`, nil)
	env := roundTrip(t, enc.State(), secret)
	if got := string(env.Meta["key_provider.external.k"]); got != `{"external_data":{"version":"7"}}` {
		t.Errorf("stored metadata %s", got)
	}
	inputs, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(strings.TrimSpace(string(inputs)), "\n"); len(got) != 2 || got[0] != "null" || got[1] != `{"external_data":{"version":"7"}}` {
		t.Errorf("the program read %q; want null for a new key, then the stored metadata", got)
	}
}

func TestExternalKeyProviderFailures(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("#!/bin/sh\necho '{\"magic\":\"Something-Else\",\"version\":1}'\necho 'boom' >&2\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	failing := filepath.Join(dir, "failing")
	if err := os.WriteFile(failing, []byte("#!/bin/sh\necho 'no key service' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for program, want := range map[string]string{bad: `header magic "Something-Else"`, failing: "no key service"} {
		enc := mustNew(t, `
key_provider "external" "k" { command = ["`+program+`"] }
method "aes_gcm" "m" { keys = key_provider.external.k }
state { method = method.aes_gcm.m }`, nil)
		_, err := enc.State().Encrypt(context.Background(), []byte(secret))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "key_provider.external.k") {
			t.Errorf("%s: want an error naming the key provider and %q, got %v", filepath.Base(program), want, err)
		}
	}
}

func TestExternalMethodWithChainedKeys(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(externalProgramEnv, "")
	wrapper := func(mode string) string {
		path := filepath.Join(t.TempDir(), mode)
		script := "#!/bin/sh\n" + externalProgramEnv + "=" + mode + " exec " + self + "\n"
		if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	dir := t.TempDir()
	keyProgram := writeKeyProgram(t, dir, filepath.Join(dir, "inputs"))
	// pbkdf2 derives from the external key provider's keys (chain), and
	// the external method encrypts with the derived key.
	enc := mustNew(t, `
key_provider "external" "source" { command = ["`+keyProgram+`"] }
key_provider "pbkdf2" "derived" {
  chain      = key_provider.external.source
  iterations = 200000
}
method "external" "m" {
  keys            = key_provider.pbkdf2.derived
  encrypt_command = ["`+wrapper("encrypt")+`"]
  decrypt_command = ["`+wrapper("decrypt")+`"]
}
plan { method = method.external.m }`, nil)
	env := roundTrip(t, enc.Plan(), secret)
	if !strings.HasPrefix(string(env.Data), "XOR:") || len(env.Meta) != 2 {
		t.Errorf("the external method did not encrypt, or metadata is missing: %q %v", env.Data, env.Meta)
	}
}

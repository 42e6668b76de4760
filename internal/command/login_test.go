package command

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/testing/clitest"
)

// loginHost is a host on loopback that offers OpenTofu's login protocol:
// service discovery, an OAuth authorization endpoint that logs the user in
// at once and redirects with a code, and a token endpoint that checks the
// PKCE proof before answering with a token; or, when tokensAPI is set,
// only the tokens API with the account of a token pasted in.
type loginHost struct {
	t         *testing.T
	server    *httptest.Server
	tokensAPI bool
	mu        sync.Mutex
	challenge string
}

func newLoginHost(t *testing.T, tokensAPI bool) *loginHost {
	h := &loginHost{t: t, tokensAPI: tokensAPI}
	h.server = httptest.NewTLSServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.server.Close)
	return h
}

func (h *loginHost) name() string { return strings.TrimPrefix(h.server.URL, "https://") }

func (h *loginHost) serve(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case req.URL.Path == "/.well-known/terraform.json" && h.tokensAPI:
		fmt.Fprint(w, `{"tfe.v2": "/api/v2/"}`)
	case req.URL.Path == "/.well-known/terraform.json":
		fmt.Fprint(w, `{"login.v1": {"client": "terrane-test", "grant_types": ["authz_code"], "authz": "/oauth/authorize", "token": "/oauth/token", "ports": [10000, 10010]}}`)
	case req.URL.Path == "/oauth/authorize":
		q := req.URL.Query()
		if q.Get("client_id") != "terrane-test" || q.Get("code_challenge_method") != "S256" || q.Get("response_type") != "code" {
			http.Error(w, "bad authorization request", http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		h.challenge = q.Get("code_challenge")
		h.mu.Unlock()
		http.Redirect(w, req, q.Get("redirect_uri")+"?code=the-code&state="+q.Get("state"), http.StatusFound)
	case req.URL.Path == "/oauth/token":
		_ = req.ParseForm()
		sum := sha256.Sum256([]byte(req.Form.Get("code_verifier")))
		h.mu.Lock()
		verified := base64.RawURLEncoding.EncodeToString(sum[:]) == h.challenge
		h.mu.Unlock()
		if req.Form.Get("code") != "the-code" || !verified {
			http.Error(w, `{"error": "invalid_grant"}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"access_token": "oauth-token", "token_type": "bearer"}`)
	case req.URL.Path == "/api/v2/account/details":
		if req.Header.Get("Authorization") != "Bearer pasted-token" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{"data": {"type": "users", "attributes": {"username": "alice"}}}`)
	default:
		http.NotFound(w, req)
	}
}

// loginEnvironment is a home directory of the test's own, with an empty
// CLI configuration file, which the environment names and nothing else.
func loginEnvironment(t *testing.T) cliconfig.Environment {
	home := t.TempDir()
	rc := filepath.Join(home, "terraformrc")
	clitest.WriteFile(t, rc, "")
	vars := map[string]string{"TERRANE_CLI_CONFIG_FILE": rc}
	return cliconfig.Environment{HomeDir: home, Getenv: func(name string) string { return vars[name] }}
}

// TestLoginWithOAuth logs in through a host's login.v1 service, the
// browser following the host's redirect to the local callback server, and
// stores the token in the credentials file as OpenTofu writes it; logout
// removes it.
func TestLoginWithOAuth(t *testing.T) {
	t.Parallel()
	host := newLoginHost(t, false)
	env := loginEnvironment(t)
	client := host.server.Client()
	var out, errOut strings.Builder
	cmd := &loginCommand{
		streams: views.Streams{Stdin: strings.NewReader("yes\n"), Stdout: &out, Stderr: &errOut},
		client:  client,
		env:     env,
		openBrowser: func(target string) error {
			go func() {
				resp, err := client.Get(target)
				if err == nil {
					resp.Body.Close()
				}
			}()
			return nil
		},
	}
	if code := cmd.run([]string{"-no-color", host.name()}); code != 0 {
		t.Fatalf("login: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	filename := filepath.Join(env.HomeDir, ".terraform.d", "credentials.tfrc.json")
	clitest.AssertContains(t, "login output", out.String(), "Do you want to proceed?", "If login is successful, Terrane will store the token in plain text",
		filename, "Terrane must now open a web browser to the login page for "+host.name(), "Success! Terrane has obtained and saved an API token.")
	want := "{\n  \"credentials\": {\n    \"" + host.name() + "\": {\n      \"token\": \"oauth-token\"\n    }\n  }\n}"
	assertCredentialsFile(t, filename, want)

	cfg, ds := cliconfig.Load(env)
	hostname, _ := svchost.ForComparison(host.name())
	if ds.HasErrors() || cfg.Credentials[hostname].Token != "oauth-token" {
		t.Errorf("the CLI configuration does not read the stored token: %v %v", ds, cfg.Credentials)
	}

	out.Reset()
	if code := logout(views.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}, []string{host.name()}, env); code != 0 {
		t.Fatalf("logout: exit %d\n%s", code, errOut.String())
	}
	clitest.AssertContains(t, "logout output", out.String(), "Removing the stored credentials for "+host.name(), "Success! Terrane has removed the stored API token")
	assertCredentialsFile(t, filename, "{\n  \"credentials\": {}\n}")
	out.Reset()
	errOut.Reset()
	if code := logout(views.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}, []string{host.name()}, env); code != 0 {
		t.Fatalf("second logout: exit %d\n%s", code, errOut.String())
	}
	clitest.AssertContains(t, "second logout", out.String(), "No credentials for "+host.name()+" are stored.")
}

// TestLoginWithTokensAPI logs in to a host with only the tokens API: the
// user pastes a token, which is checked against the account it belongs to
// before it is stored. A token the host refuses is not stored.
func TestLoginWithTokensAPI(t *testing.T) {
	t.Parallel()
	host := newLoginHost(t, true)
	env := loginEnvironment(t)
	filename := filepath.Join(env.HomeDir, ".terraform.d", "credentials.tfrc.json")
	run := func(stdin string) (string, string, int) {
		var out, errOut strings.Builder
		cmd := &loginCommand{streams: views.Streams{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut}, client: host.server.Client(), env: env,
			openBrowser: func(string) error { return fmt.Errorf("no browser here") }}
		code := cmd.run([]string{"-no-color", host.name()})
		return out.String(), errOut.String(), code
	}
	_, errOut, code := run("yes\nwrong-token\n")
	if code == 0 || !strings.Contains(errOut, "Token is invalid") {
		t.Fatalf("a refused token was accepted: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filename); err == nil {
		t.Errorf("a refused token was stored")
	}
	out, errOut, code := run("yes\npasted-token\n")
	if code != 0 {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	clitest.AssertContains(t, "login output", out, "Open the following URL to access the tokens page for "+host.name(),
		"/app/settings/tokens?source=terrane-login", "Token for "+host.name(), "Retrieved token for user alice")
	assertCredentialsFile(t, filename, "{\n  \"credentials\": {\n    \""+host.name()+"\": {\n      \"token\": \"pasted-token\"\n    }\n  }\n}")
	if _, errOut, code := run("no\n"); code == 0 || !strings.Contains(errOut, "Login cancelled") {
		t.Errorf("login without consent: exit %d\n%s", code, errOut)
	}
}

func assertCredentialsFile(t *testing.T, filename, want string) {
	t.Helper()
	src, err := os.ReadFile(filename)
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != want {
		t.Errorf("%s:\n%s\nwant:\n%s", filename, src, want)
	}
	var doc map[string]any
	if json.Unmarshal(src, &doc) != nil {
		t.Errorf("%s is not JSON", filename)
	}
	if info, err := os.Stat(filename); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v, %v; want 0600", filename, info.Mode().Perm(), err)
	}
}

package command

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
	"time"

	svchost "github.com/hashicorp/terraform-svchost"
	"github.com/hashicorp/terraform-svchost/disco"
	"golang.org/x/oauth2"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/version"
)

// defaultLoginHost is the host `login` logs in to when none is given, as
// in OpenTofu.
const defaultLoginHost = "app.terraform.io"

// loginCommand is `terrane login [HOSTNAME]`: it obtains an API token for a
// host that offers one, through the host's OAuth login service (login.v1,
// in the browser) or, failing that, by asking for a token the user
// generates in the host's web UI (tfe.v2), and stores it in the
// credentials file as OpenTofu does. Later commands send it to that host.
type loginCommand struct {
	streams views.Streams
	// client makes every request to the host; nil means the default.
	client *http.Client
	// openBrowser shows the user a URL; nil launches $BROWSER or the
	// platform's opener.
	openBrowser func(url string) error
	env         cliconfig.Environment
	view        *views.Login
}

func runLogin(streams views.Streams, args []string) int {
	return (&loginCommand{streams: streams}).run(args)
}

func (c *loginCommand) run(args []string) int {
	fs := newFlagSet("login", c.streams)
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	input := fs.Bool("input", true, "Ask for input; login cannot work without it")
	if err := fs.Parse(args); err != nil {
		return flagParseError(c.streams.Stderr, err, ui.ColorEnabled(*noColor))
	}
	c.view = views.NewLogin(c.streams, ui.ColorEnabled(*noColor))
	fail := func(ds ...diags.Diagnostic) int {
		c.view.Failure(ds)
		return 1
	}
	if fs.NArg() > 1 {
		return fail(diags.Errorf("Too many arguments", "The login command expects at most one argument: the host to log in to."))
	}
	if !*input {
		return fail(diags.Errorf("Login is an interactive command",
			"The \"terrane login\" command uses interactive prompts to obtain and record credentials, so it can't be run with input disabled.\n\nTo configure credentials in a non-interactive context, write existing credentials directly to a CLI configuration file."))
	}
	given := defaultLoginHost
	if fs.NArg() == 1 {
		given = fs.Arg(0)
	}
	hostname, err := svchost.ForComparison(given)
	if err != nil {
		return fail(diags.Errorf("Invalid hostname", "The given hostname %q is not valid: %s.", given, err))
	}
	display := hostname.ForDisplay()
	cfg, cfgDiags := cliconfig.Load(c.env)
	if cfgDiags.HasErrors() {
		return fail(cfgDiags...)
	}
	filename := cliconfig.CredentialsFile(c.env)
	host, err := c.discovery().Discover(hostname)
	if err != nil {
		return fail(diags.Errorf("Service discovery failed for "+display, "%s.", err))
	}
	login, ds := loginService(host, display)
	var tokens *url.URL
	if login == nil {
		var tds diags.Diagnostics
		tokens, tds = tokensService(host, display)
		ds = ds.Append(tds)
	}
	if creds, ok := cfg.Credentials[hostname]; ok && !creds.InCredentialsFile {
		ds = ds.Append(diags.Errorf(fmt.Sprintf("Credentials for %s are manually configured", display),
			"The \"terrane login\" command cannot log in because credentials for this host are already configured in a CLI configuration file.\n\nTo log in, first revoke the existing credentials and remove that block from the CLI configuration."))
	}
	if ds.HasErrors() {
		return fail(ds...)
	}
	c.view.Warnings(ds)
	var token string
	var tds diags.Diagnostics
	switch {
	case login != nil && login.SupportedGrantTypes.Has(disco.OAuthAuthzCodeGrant):
		token, tds = c.tokenByCode(hostname, login, filename)
	case login != nil:
		tds = diags.Diagnostics{diags.Errorf("Host does not support Terrane login",
			"The given hostname %q does not allow any OAuth grant types that are supported by this version of Terrane.", display)}
	default:
		token, tds = c.tokenByUI(hostname, tokens, filename)
	}
	if tds.HasErrors() {
		return fail(tds...)
	}
	if err := cliconfig.StoreCredentials(filename, hostname, token); err != nil {
		return fail(diags.Errorf("Failed to save API token", "The given host returned an API token, but Terrane failed to save it: %s.", err))
	}
	c.view.Succeeded(display, tokens != nil)
	return 0
}

func (c *loginCommand) httpClient() *http.Client {
	if c.client != nil {
		return c.client
	}
	return &http.Client{Timeout: time.Minute}
}

func (c *loginCommand) discovery() *disco.Disco {
	d := disco.New()
	d.SetUserAgent("Terrane/" + version.String())
	if c.client != nil && c.client.Transport != nil {
		d.Transport = c.client.Transport
	}
	return d
}

// loginService is the host's OAuth login service, or nil with a warning
// saying why there is none usable (nil and no warning when the host simply
// offers none).
func loginService(host *disco.Host, display string) (*disco.OAuthClient, diags.Diagnostics) {
	client, err := host.ServiceOAuthClient("login.v1")
	var notProvided *disco.ErrServiceNotProvided
	var tooNew *disco.ErrVersionNotSupported
	switch {
	case err == nil:
		return client, nil
	case errors.As(err, &notProvided):
		return nil, nil
	case errors.As(err, &tooNew):
		return nil, diags.Diagnostics{diags.Warnf("Host does not support Terrane login",
			"The given hostname %q allows creating authorization tokens, but requires a newer version of the login protocol than Terrane speaks.", display)}
	default:
		return nil, diags.Diagnostics{diags.Warnf("Host does not support Terrane login", "The given hostname %q cannot support \"terrane login\": %s.", display, err)}
	}
}

// tokensService is the host's tokens API (tfe.v2), used when it has no
// login service.
func tokensService(host *disco.Host, display string) (*url.URL, diags.Diagnostics) {
	service, err := host.ServiceURL("tfe.v2")
	var notProvided *disco.ErrServiceNotProvided
	var tooNew *disco.ErrVersionNotSupported
	switch {
	case err == nil:
		return service, nil
	case errors.As(err, &notProvided):
		return nil, diags.Diagnostics{diags.Errorf("Host does not support Terrane tokens API", "The given hostname %q does not support creating authorization tokens.", display)}
	case errors.As(err, &tooNew):
		return nil, diags.Diagnostics{diags.Errorf("Host does not support Terrane tokens API",
			"The given hostname %q allows creating authorization tokens, but requires a newer version of the tokens API than Terrane speaks.", display)}
	default:
		return nil, diags.Diagnostics{diags.Errorf("Host does not support Terrane tokens API", "The given hostname %q cannot support \"terrane login\": %s.", display, err)}
	}
}

// browse shows the user a URL: through the browser when one opens, and
// printed either way.
func (c *loginCommand) browse(what, display, target string) {
	open := c.openBrowser
	if open == nil {
		open = launchBrowser
	}
	c.view.Browse(what, display, target, open(target) == nil)
}

// launchBrowser opens target with $BROWSER when it names a command, as
// OpenTofu 1.12 does, or else with the platform's opener.
func launchBrowser(target string) error {
	command := os.Getenv("BROWSER")
	if command == "" {
		switch runtime.GOOS {
		case "darwin":
			command = "open"
		case "windows":
			return errors.New("no browser launcher")
		default:
			command = "xdg-open"
		}
	}
	return exec.Command(command, target).Start()
}

// tokenByCode is the OAuth authorization code grant with PKCE: the browser
// logs in at the host, which sends the code to a temporary server on
// localhost; the code is exchanged for the token.
func (c *loginCommand) tokenByCode(hostname svchost.Hostname, login *disco.OAuthClient, filename string) (string, diags.Diagnostics) {
	display := hostname.ForDisplay()
	if !c.view.Consent(display, "your browser", filename, true) {
		return "", diags.Diagnostics{diags.Errorf("Login cancelled", "Login process cancelled because it was not confirmed")}
	}
	state, verifier, challenge, err := loginSecrets()
	if err != nil {
		return "", diags.Diagnostics{diags.Errorf("Can't generate login request state", "Cannot generate random values for the login request: %s.", err)}
	}
	listener, callback, err := callbackListener(login.MinPort, login.MaxPort)
	if err != nil {
		return "", diags.Diagnostics{diags.Errorf("Can't start temporary login server",
			"The login process uses OAuth, which requires starting a temporary HTTP server on localhost. However, no TCP port numbers between %d and %d are available to create such a server.", login.MinPort, login.MaxPort)}
	}
	codes := make(chan string, 1)
	server := &http.Server{Handler: loginCallback(state, codes), ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = server.Serve(listener) }()
	defer server.Close()
	config := &oauth2.Config{ClientID: login.ID, Endpoint: login.Endpoint(), RedirectURL: callback, Scopes: login.Scopes}
	authURL := config.AuthCodeURL(state, oauth2.SetAuthURLParam("code_challenge", challenge), oauth2.SetAuthURLParam("code_challenge_method", "S256"))
	c.browse("login", display, authURL)
	c.view.Waiting()
	code := <-codes
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, c.httpClient())
	token, err := config.Exchange(ctx, code, oauth2.SetAuthURLParam("code_verifier", verifier))
	if err != nil {
		return "", diags.Diagnostics{diags.Errorf("Failed to obtain auth token", "The remote server did not assign an auth token: %s.", err)}
	}
	return token.AccessToken, nil
}

// loginCallback answers the host's redirect: a request with this login's
// state and a code hands the code over; anything else is refused, so that
// another program cannot slip its own code in.
func loginCallback(state string, codes chan<- string) http.Handler {
	var delivered atomic.Bool
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if err := req.ParseForm(); err != nil || req.Form.Get("state") != state || req.Form.Get("code") == "" || !delivered.CompareAndSwap(false, true) {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		codes <- req.Form.Get("code")
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<html><body><p>The login server has returned an authentication code to Terrane.</p><p>Now close this page and return to the terminal.</p></body></html>")
	})
}

// loginSecrets are a login's random request state and its PKCE proof key
// with the key's S256 challenge.
func loginSecrets() (state, verifier, challenge string, err error) {
	random := func(n int) (string, error) {
		buf := make([]byte, n)
		if _, err := rand.Read(buf); err != nil {
			return "", err
		}
		return base64.RawURLEncoding.EncodeToString(buf), nil
	}
	if state, err = random(16); err != nil {
		return "", "", "", err
	}
	if verifier, err = random(32); err != nil {
		return "", "", "", err
	}
	sum := sha256.Sum256([]byte(verifier))
	return state, verifier, base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// callbackListener listens on a port of localhost within the host's range,
// trying ports in random order, and returns the redirect URL for it.
func callbackListener(minPort, maxPort uint16) (net.Listener, string, error) {
	if minPort < 1024 {
		minPort = 1024
	}
	if maxPort < minPort {
		return nil, "", errors.New("no usable port range")
	}
	span := int64(maxPort-minPort) + 1
	offset, err := rand.Int(rand.Reader, big.NewInt(span))
	if err != nil {
		return nil, "", err
	}
	for i := int64(0); i < span; i++ {
		port := int64(minPort) + (offset.Int64()+i)%span
		listener, err := net.Listen("tcp4", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			return listener, fmt.Sprintf("http://localhost:%d/login", port), nil
		}
	}
	return nil, "", errors.New("every port is in use")
}

// tokenByUI asks for a token the user generates in the host's web UI, and
// checks it by asking the tokens API who it belongs to.
func (c *loginCommand) tokenByUI(hostname svchost.Hostname, service *url.URL, filename string) (string, diags.Diagnostics) {
	display := hostname.ForDisplay()
	if !c.view.Consent(display, "OAuth", filename, false) {
		return "", diags.Diagnostics{diags.Errorf("Login cancelled", "Login process cancelled because it was not confirmed")}
	}
	page := url.URL{Scheme: "https", Host: service.Host, Path: "/app/settings/tokens", RawQuery: "source=terrane-login"}
	c.browse("tokens", display, page.String())
	token := c.view.AskToken(display)
	if token == "" {
		return "", diags.Diagnostics{diags.Errorf("Token is empty", "The token given for %s is empty. Run \"terrane login\" again and paste the token the web page shows.", display)}
	}
	user, err := c.tokenOwner(service, token)
	if err != nil {
		return "", diags.Diagnostics{diags.Errorf("Token is invalid", "%s did not accept the token: %s.", display, err)}
	}
	c.view.TokenOwner(user)
	return token, nil
}

// tokenOwner asks the tokens API whose token it is.
func (c *loginCommand) tokenOwner(service *url.URL, token string) (string, error) {
	details := service.JoinPath("account", "details")
	req, err := http.NewRequest(http.MethodGet, details.String(), nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/vnd.api+json")
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s answered %s", details, resp.Status)
	}
	var body struct {
		Data struct {
			Attributes struct {
				Username string `json:"username"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return "", fmt.Errorf("%s answered with an unreadable document: %w", details, err)
	}
	return body.Data.Attributes.Username, nil
}

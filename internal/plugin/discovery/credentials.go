package discovery

import (
	"net/http"
	"strings"

	svchost "github.com/hashicorp/terraform-svchost"
	"github.com/hashicorp/terraform-svchost/auth"
	"golang.org/x/net/idna"

	"github.com/terrane/terrane/internal/plugin/cliconfig"
)

// Credentials are the bearer tokens Terrane presents to registries and
// mirrors, by host.
type Credentials struct {
	tokens map[svchost.Hostname]string
}

// tokenVariablePrefix starts the environment variables that carry a token
// for one host, such as TF_TOKEN_app_terraform_io.
const tokenVariablePrefix = "TF_TOKEN_"

// NewCredentials combines the CLI configuration's credentials blocks with
// TF_TOKEN_<host> variables from environ (os.Environ's form). As in
// Terraform, a variable wins over a block for the same host. In a variable
// name a dot of the hostname is written "_" and a dash "__"; hostnames
// with other characters are written in their punycode (xn--) form.
func NewCredentials(blocks map[svchost.Hostname]cliconfig.Credentials, environ []string) Credentials {
	tokens := make(map[svchost.Hostname]string)
	for host, block := range blocks {
		if block.Token != "" {
			tokens[host] = block.Token
		}
	}
	for _, entry := range environ {
		name, token, found := strings.Cut(entry, "=")
		encoded, isToken := strings.CutPrefix(name, tokenVariablePrefix)
		if !found || !isToken || token == "" {
			continue
		}
		host, ok := hostFromTokenVariable(encoded)
		if ok {
			tokens[host] = token
		}
	}
	return Credentials{tokens: tokens}
}

// hostFromTokenVariable decodes the host part of a TF_TOKEN_ variable.
func hostFromTokenVariable(encoded string) (svchost.Hostname, bool) {
	raw := strings.ReplaceAll(encoded, "__", "-")
	raw = strings.ReplaceAll(raw, "_", ".")
	// Hostnames are compared in their Unicode form, which svchost wants
	// given as such rather than as punycode.
	if unicode, err := idna.Lookup.ToUnicode(raw); err == nil {
		raw = unicode
	}
	host, err := svchost.ForComparison(raw)
	return host, err == nil
}

// Token returns the token for host, or "".
func (c Credentials) Token(host svchost.Hostname) string {
	return c.tokens[host]
}

// Source adapts the credentials for service discovery.
func (c Credentials) Source() auth.CredentialsSource {
	static := make(map[svchost.Hostname]map[string]interface{}, len(c.tokens))
	for host, token := range c.tokens {
		static[host] = map[string]interface{}{"token": token}
	}
	return auth.StaticCredentialsSource(static)
}

// authorize adds the request host's token, if there is one. Tokens go only
// to the host they were given for: a download URL on another host (such
// as a release bucket) gets none.
func (c Credentials) authorize(req *http.Request) {
	host, err := svchost.ForComparison(req.URL.Host)
	if err != nil {
		return
	}
	if token := c.tokens[host]; token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
}

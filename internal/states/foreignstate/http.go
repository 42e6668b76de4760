package foreignstate

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// HTTPSettings are what reading an http backend's state needs.
type HTTPSettings struct {
	Address            string
	Username, Password string
	SkipCertVerify     bool
	Headers            map[string]string
}

// httpArguments are the http backend's arguments: the ones reading needs,
// those only locking and writing use (accepted, not needed to read), and
// those Terrane cannot honour when reading (refused, never ignored).
var (
	httpReadArguments  = []string{"address", "username", "password", "skip_cert_verification", "headers"}
	httpIgnoredForRead = []string{"update_method", "lock_address", "unlock_address", "lock_method", "unlock_method",
		"retry_max", "retry_wait_min", "retry_wait_max"}
	httpUnsupported = []string{"client_ca_certificate_pem", "client_certificate_pem", "client_private_key_pem"}
)

// httpEnv are the environment variables OpenTofu's http backend reads
// when the block does not set the argument.
var httpEnv = map[string]string{"address": "TF_HTTP_ADDRESS", "username": "TF_HTTP_USERNAME", "password": "TF_HTTP_PASSWORD"}

func decodeHTTP(block *config.Backend, environ []string) (*HTTPSettings, diags.Diagnostics) {
	schema := &hcl.BodySchema{}
	for _, list := range [][]string{httpReadArguments, httpIgnoredForRead, httpUnsupported} {
		for _, name := range list {
			schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: name})
		}
	}
	content, hclDiags := block.Config.Content(schema)
	ds := diags.Diagnostics{}.Append(hclDiags)
	settings := &HTTPSettings{Headers: map[string]string{}}
	env := map[string]string{}
	for _, entry := range environ {
		name, value, _ := strings.Cut(entry, "=")
		env[name] = value
	}
	for name, target := range map[string]*string{"address": &settings.Address, "username": &settings.Username, "password": &settings.Password} {
		*target = env[httpEnv[name]]
		if attr, ok := content.Attributes[name]; ok {
			ds = ds.Append(decodeString(attr, target))
		}
	}
	if attr, ok := content.Attributes["skip_cert_verification"]; ok {
		val, more := attr.Expr.Value(nil)
		ds = ds.Append(more)
		if b, err := convert.Convert(val, cty.Bool); err == nil && b.IsKnown() && !b.IsNull() {
			settings.SkipCertVerify = b.True()
		}
	}
	if attr, ok := content.Attributes["headers"]; ok {
		val, more := attr.Expr.Value(nil)
		ds = ds.Append(more)
		if m, err := convert.Convert(val, cty.Map(cty.String)); err == nil && m.IsWhollyKnown() && !m.IsNull() {
			for k, v := range m.AsValueMap() {
				settings.Headers[k] = v.AsString()
			}
		}
	}
	for _, name := range httpUnsupported {
		if attr, ok := content.Attributes[name]; ok {
			d := diags.Errorf("Unsupported http backend argument",
				"Terrane reads the http backend's state to take it in, but cannot present the client certificate %s asks for. "+
					"Save the state with the tool that wrote it (terraform state pull > terraform.tfstate) and run terrane state push terraform.tfstate.", name)
			d.Subject = attr.NameRange.Ptr()
			ds = ds.Append(d)
		}
	}
	if settings.Address == "" && !ds.HasErrors() {
		d := diags.Errorf("Missing http backend address", "The backend \"http\" block needs an address (or TF_HTTP_ADDRESS) for Terrane to read the state it keeps.")
		d.Subject = block.DeclRange.Ptr()
		ds = ds.Append(d)
	}
	return settings, ds
}

func decodeString(attr *hcl.Attribute, target *string) diags.Diagnostics {
	val, hclDiags := attr.Expr.Value(nil)
	if hclDiags.HasErrors() {
		return diags.Diagnostics{}.Append(hclDiags)
	}
	str, err := convert.Convert(val, cty.String)
	if err != nil || str.IsNull() || !str.IsKnown() {
		d := diags.Errorf("Invalid backend argument", "The argument %q must be a string.", attr.Name)
		d.Subject = attr.Expr.Range().Ptr()
		return diags.Diagnostics{d}
	}
	*target = str.AsString()
	return nil
}

// fetch reads the state at the address, as the http backend's GET does:
// an empty answer, 204 or 404 mean there is none.
func (s *HTTPSettings) fetch(ctx context.Context, loc Location) (*Source, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.Address, nil)
	if err != nil {
		return nil, fmt.Errorf("the http backend's address %q: %w", s.Address, err)
	}
	if s.Username != "" {
		req.SetBasicAuth(s.Username, s.Password)
	}
	for k, v := range s.Headers {
		req.Header.Set(k, v)
	}
	client := &http.Client{}
	if s.SkipCertVerify {
		client.Transport = &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} //nolint:gosec // the block asks for it
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("reading the state at %s: %w", s.Address, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNoContent, http.StatusNotFound:
		return nil, nil
	default:
		return nil, fmt.Errorf("reading the state at %s: the server answered %s", s.Address, resp.Status)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the state at %s: %w", s.Address, err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	file, err := loc.read(body)
	if err != nil {
		return nil, fmt.Errorf("the state at %s: %w", s.Address, err)
	}
	return &Source{Workspace: DefaultWorkspace, Where: s.Address, File: file}, nil
}

package openbao

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// client makes Transit calls: a POST of a JSON body to /v1/PATH, answered
// with {"data": {...}} or, on failure, {"errors": [...]}.
type client struct {
	address   *url.URL
	token     string
	namespace string
	http      *http.Client
}

// newClient reads the TLS and namespace settings OpenBao's own client
// reads from the environment: BAO_CACERT, BAO_CLIENT_CERT and
// BAO_CLIENT_KEY, BAO_SKIP_VERIFY, BAO_TLS_SERVER_NAME and BAO_NAMESPACE.
func newClient(address, token string) (*client, error) {
	parsed, err := url.Parse(address)
	if err != nil || parsed.Host == "" || (parsed.Scheme != "http" && parsed.Scheme != "https") {
		return nil, fmt.Errorf("%q is not an OpenBao address such as https://127.0.0.1:8200", address)
	}
	tlsConfig, err := tlsFromEnv()
	if err != nil {
		return nil, err
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsConfig
	return &client{address: parsed, token: token, namespace: os.Getenv("BAO_NAMESPACE"),
		http: &http.Client{Transport: transport, Timeout: time.Minute}}, nil
}

func tlsFromEnv() (*tls.Config, error) {
	config := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: os.Getenv("BAO_TLS_SERVER_NAME")}
	if caFile := os.Getenv("BAO_CACERT"); caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("BAO_CACERT: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("BAO_CACERT %s holds no PEM certificate", caFile)
		}
		config.RootCAs = pool
	}
	if certFile, keyFile := os.Getenv("BAO_CLIENT_CERT"), os.Getenv("BAO_CLIENT_KEY"); certFile != "" || keyFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("BAO_CLIENT_CERT and BAO_CLIENT_KEY: %w", err)
		}
		config.Certificates = []tls.Certificate{cert}
	}
	if skip := os.Getenv("BAO_SKIP_VERIFY"); skip != "" {
		insecure, err := strconv.ParseBool(skip)
		if err != nil {
			return nil, fmt.Errorf("BAO_SKIP_VERIFY %q is not true or false", skip)
		}
		config.InsecureSkipVerify = insecure
	}
	return config, nil
}

// write posts body to /v1/PATH and returns the answer's data.
func (c *client) write(ctx context.Context, apiPath string, body map[string]any) (map[string]any, error) {
	encoded, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	target := c.address.JoinPath("v1", strings.TrimPrefix(apiPath, "/"))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.String(), bytes.NewReader(encoded))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("X-Vault-Token", c.token)
	}
	if c.namespace != "" {
		req.Header.Set("X-Vault-Namespace", c.namespace)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("error sending the request to OpenBao: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	var answer struct {
		Data   map[string]any `json:"data"`
		Errors []string       `json:"errors"`
	}
	_ = json.Unmarshal(raw, &answer)
	if resp.StatusCode/100 != 2 {
		detail := strings.Join(answer.Errors, "; ")
		if detail == "" {
			detail = strings.TrimSpace(string(raw))
		}
		return nil, fmt.Errorf("OpenBao answered %s for %s: %s", resp.Status, target.Path, detail)
	}
	if answer.Data == nil {
		return nil, errors.New("OpenBao's answer has no data (an incompatible OpenBao version?)")
	}
	return answer.Data, nil
}

func plaintextOf(data map[string]any) ([]byte, error) {
	encoded, ok := data["plaintext"].(string)
	if !ok {
		return nil, errors.New("OpenBao's answer has no plaintext (an incompatible OpenBao version?)")
	}
	key, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return nil, fmt.Errorf("OpenBao's plaintext is not base64: %w", err)
	}
	return key, nil
}

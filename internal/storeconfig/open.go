package storeconfig

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/etcd"
	"github.com/terrane/terrane/internal/store/remote"
	"github.com/terrane/terrane/internal/store/sqlite"
)

// RequestTimeout bounds one request to a shared store. A store that does
// not answer within it counts as unavailable for that request; callers
// that must not lose a write retry (see package journal).
const RequestTimeout = 20 * time.Second

// TokenSource returns the token for a serve endpoint's host, as OpenTofu
// finds one: the CLI configuration's credentials block or a TF_TOKEN_
// variable. host is HOST:PORT or HOST.
type TokenSource func(host string) string

// Open opens the store s names. Relative files (the embedded store, CA and
// client certificates) are resolved against dir, the working directory.
// tokens supplies the token of a serve endpoint when s has none; it may be
// nil.
func Open(dir string, s Settings, tokens TokenSource) (store.Backend, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	switch s.Kind() {
	case Etcd:
		return openEtcd(dir, s)
	case Serve:
		return openServe(dir, s, tokens)
	}
	path := s.AbsPath(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	backend, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		return nil, fmt.Errorf("opening the state store %s: %w", path, err)
	}
	return backend, nil
}

func openEtcd(dir string, s Settings) (store.Backend, error) {
	conn := etcd.Connection{Username: s.Username, Password: s.Password}
	anyTLS := false
	for _, endpoint := range s.Endpoints {
		_, hostPort, _ := splitEndpoint(endpoint)
		scheme := "http://"
		if s.usesTLS(endpoint) {
			scheme, anyTLS = "https://", true
		}
		conn.Endpoints = append(conn.Endpoints, scheme+hostPort)
	}
	if anyTLS {
		config, err := clientTLS(dir, s, true)
		if err != nil {
			return nil, err
		}
		conn.TLS = config
	}
	if s.Password != "" && !anyTLS && !allLoopback(s.Endpoints) {
		return nil, fmt.Errorf("the etcd password would cross the network in clear text: reach %s over TLS (https:// endpoints and ca_file)", strings.Join(s.Endpoints, ", "))
	}
	return etcd.Dial(conn, etcd.Options{Prefix: s.Prefix, RequestTimeout: RequestTimeout})
}

func openServe(dir string, s Settings, tokens TokenSource) (store.Backend, error) {
	_, hostPort, _ := splitEndpoint(s.Address)
	cfg := remote.Config{Address: hostPort, Token: s.Token, RequestTimeout: RequestTimeout}
	if cfg.Token == "" && tokens != nil {
		cfg.Token = tokens(hostPort)
	}
	if s.usesTLS(s.Address) {
		config, err := clientTLS(dir, s, false)
		if err != nil {
			return nil, err
		}
		cfg.TLS = config
	} else if cfg.Token != "" && !isLoopback(hostOf(s.Address)) {
		return nil, fmt.Errorf("the token for %s would cross the network in clear text: use https:// (with ca_file when the server's certificate is not publicly trusted)", s.Address)
	}
	return remote.Dial(cfg)
}

// clientTLS builds the TLS configuration: the system's roots, or ca_file's;
// and the client certificate when one is given.
func clientTLS(dir string, s Settings, clientCert bool) (*tls.Config, error) {
	config := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.CAFile != "" {
		path := resolvePath(dir, s.CAFile)
		pem, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("ca_file %s holds no PEM certificate", path)
		}
		config.RootCAs = pool
	}
	if clientCert && s.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(resolvePath(dir, s.CertFile), resolvePath(dir, s.KeyFile))
		if err != nil {
			return nil, fmt.Errorf("loading cert_file %s and key_file %s: %w", s.CertFile, s.KeyFile, err)
		}
		config.Certificates = []tls.Certificate{cert}
	}
	return config, nil
}

func allLoopback(endpoints []string) bool {
	for _, endpoint := range endpoints {
		if !isLoopback(hostOf(endpoint)) {
			return false
		}
	}
	return true
}

// TokenLookup adapts a map of tokens by host, as the CLI configuration's
// credentials and TF_TOKEN_ variables give them, to a TokenSource. A token
// given for HOST:PORT is preferred; one for HOST applies to every port,
// since TF_TOKEN_ variable names cannot hold a port.
func TokenLookup(token func(svchost.Hostname) string) TokenSource {
	return func(hostPort string) string {
		candidates := []string{hostPort}
		if host, _, err := net.SplitHostPort(hostPort); err == nil {
			candidates = append(candidates, host)
		}
		for _, candidate := range candidates {
			name, err := svchost.ForComparison(candidate)
			if err != nil {
				continue
			}
			if found := token(name); found != "" {
				return found
			}
		}
		return ""
	}
}

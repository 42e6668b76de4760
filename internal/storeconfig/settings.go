package storeconfig

import (
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strings"
)

// Kind is the kind of store Settings name.
type Kind string

// The kinds of store.
const (
	// Embedded is a SQLite database file on this machine.
	Embedded Kind = "embedded"
	// Etcd is an etcd cluster.
	Etcd Kind = "etcd"
	// Serve is a `terrane serve` endpoint.
	Serve Kind = "serve"
)

// BackendType is the backend type that configures Terrane's store.
const BackendType = "terrane"

// DefaultPath is the embedded store's file, relative to the working
// directory, when nothing names another.
const DefaultPath = ".terrane/state.db"

// DefaultPrefix is the etcd key prefix when none is given.
const DefaultPrefix = "/terrane/"

// Settings name a store and say how to reach it. The zero value is the
// embedded store at DefaultPath.
type Settings struct {
	// Path is the embedded store's database file.
	Path string `json:"path,omitempty"`
	// Endpoints are the etcd cluster's client URLs.
	Endpoints []string `json:"endpoints,omitempty"`
	// Prefix is prepended to every etcd key.
	Prefix string `json:"prefix,omitempty"`
	// Address is a `terrane serve` endpoint: host:port, https://host:port
	// or http://host:port.
	Address string `json:"address,omitempty"`
	// CAFile is a PEM file of certificate authorities to trust.
	CAFile string `json:"ca_file,omitempty"`
	// CertFile and KeyFile are an etcd client certificate and its key.
	CertFile string `json:"cert_file,omitempty"`
	KeyFile  string `json:"key_file,omitempty"`
	// Username and Password authenticate to etcd.
	Username string `json:"username,omitempty"`
	Password string `json:"password,omitempty"`
	// Token is the bearer token for a serve endpoint; empty means the one
	// the CLI configuration's credentials or TF_TOKEN_ variables give.
	Token string `json:"token,omitempty"`
}

// attribute is one argument of the backend "terrane" block.
type attribute struct {
	name   string
	list   bool
	secret bool
	// identity is set for the arguments that say which store it is, as
	// opposed to how to reach it.
	identity bool
	// kinds are the stores the argument applies to.
	kinds []Kind
	field func(*Settings) *string
}

// attributes are the backend block's arguments, in documentation order.
var attributes = []attribute{
	{name: "path", identity: true, kinds: []Kind{Embedded}, field: func(s *Settings) *string { return &s.Path }},
	{name: "endpoints", list: true, identity: true, kinds: []Kind{Etcd}},
	{name: "prefix", identity: true, kinds: []Kind{Etcd}, field: func(s *Settings) *string { return &s.Prefix }},
	{name: "address", identity: true, kinds: []Kind{Serve}, field: func(s *Settings) *string { return &s.Address }},
	{name: "ca_file", kinds: []Kind{Etcd, Serve}, field: func(s *Settings) *string { return &s.CAFile }},
	{name: "cert_file", kinds: []Kind{Etcd}, field: func(s *Settings) *string { return &s.CertFile }},
	{name: "key_file", kinds: []Kind{Etcd}, field: func(s *Settings) *string { return &s.KeyFile }},
	{name: "username", kinds: []Kind{Etcd}, field: func(s *Settings) *string { return &s.Username }},
	{name: "password", secret: true, kinds: []Kind{Etcd}, field: func(s *Settings) *string { return &s.Password }},
	{name: "token", secret: true, kinds: []Kind{Serve}, field: func(s *Settings) *string { return &s.Token }},
}

func attributeNamed(name string) (attribute, bool) {
	for _, attr := range attributes {
		if attr.name == name {
			return attr, true
		}
	}
	return attribute{}, false
}

// isSet reports whether s sets attr.
func (s *Settings) isSet(attr attribute) bool {
	if attr.list {
		return len(s.Endpoints) > 0
	}
	return *attr.field(s) != ""
}

// set gives attr a value from another source (a list as its elements).
func (s *Settings) set(attr attribute, value string, list []string) {
	if attr.list {
		s.Endpoints = slices.Clone(list)
		return
	}
	*attr.field(s) = value
}

// copyFrom sets every attribute other sets, or only the ones keep allows.
func (s *Settings) copyFrom(other Settings, keep func(attribute) bool) {
	for _, attr := range attributes {
		if !other.isSet(attr) || (keep != nil && !keep(attr)) {
			continue
		}
		if attr.list {
			s.set(attr, "", other.Endpoints)
		} else {
			s.set(attr, *attr.field(&other), nil)
		}
	}
}

// Merge returns s with every attribute over sets replaced by over's value:
// later sources of settings override earlier ones argument by argument.
func (s Settings) Merge(over Settings) Settings {
	s.Endpoints = slices.Clone(s.Endpoints)
	s.copyFrom(over, nil)
	return s
}

// WithCredentialsFrom returns s with the arguments of other that say how
// to reach a store (credentials, certificates) but not which store it is.
func (s Settings) WithCredentialsFrom(other Settings) Settings {
	s.Endpoints = slices.Clone(s.Endpoints)
	s.copyFrom(other, func(attr attribute) bool { return !attr.identity })
	return s
}

// withoutSecrets returns s without its password and token, which are never
// written to the working directory when they came from the environment.
func (s Settings) withoutSecrets() Settings {
	for _, attr := range attributes {
		if attr.secret {
			s.set(attr, "", nil)
		}
	}
	return s
}

// Kind returns the kind of store s names: etcd when endpoints are set, a
// serve endpoint when an address is, else the embedded store.
func (s Settings) Kind() Kind {
	switch {
	case len(s.Endpoints) > 0:
		return Etcd
	case s.Address != "":
		return Serve
	}
	return Embedded
}

// Validate reports arguments that do not fit together.
func (s Settings) Validate() error {
	if len(s.Endpoints) > 0 && s.Address != "" {
		return fmt.Errorf("both endpoints (an etcd cluster) and address (a terrane serve endpoint) are set; a working directory uses one store, so set one of them")
	}
	kind := s.Kind()
	for _, attr := range attributes {
		if s.isSet(attr) && !slices.Contains(attr.kinds, kind) {
			return fmt.Errorf("%s does not apply to %s; remove it, or set %s", attr.name, kind.describe(), kindSelector(attr.kinds[0]))
		}
	}
	if (s.CertFile == "") != (s.KeyFile == "") {
		return fmt.Errorf("cert_file and key_file must be given together: they are the client certificate etcd checks and its private key")
	}
	for _, endpoint := range s.Endpoints {
		if _, _, err := splitEndpoint(endpoint); err != nil {
			return err
		}
	}
	if s.Address != "" {
		if _, _, err := splitEndpoint(s.Address); err != nil {
			return err
		}
	}
	return nil
}

func (k Kind) describe() string {
	switch k {
	case Etcd:
		return "an etcd cluster"
	case Serve:
		return "a terrane serve endpoint"
	}
	return "the embedded store"
}

func kindSelector(k Kind) string {
	switch k {
	case Etcd:
		return "endpoints to use an etcd cluster"
	case Serve:
		return "address to use a terrane serve endpoint"
	}
	return "neither endpoints nor address to use the embedded store"
}

// splitEndpoint returns an endpoint's scheme ("" when it has none) and
// host:port.
func splitEndpoint(endpoint string) (scheme, hostPort string, err error) {
	hostPort = endpoint
	if before, after, found := strings.Cut(endpoint, "://"); found {
		scheme, hostPort = strings.ToLower(before), after
		if scheme != "http" && scheme != "https" {
			return "", "", fmt.Errorf("%q: the scheme must be https:// or http://", endpoint)
		}
	}
	hostPort = strings.TrimSuffix(hostPort, "/")
	if _, port, splitErr := net.SplitHostPort(hostPort); splitErr != nil || port == "" {
		return "", "", fmt.Errorf("%q is not HOST:PORT (optionally after https:// or http://)", endpoint)
	}
	return scheme, hostPort, nil
}

// usesTLS reports whether an endpoint is reached over TLS: https:// says
// so, http:// says not, and a bare HOST:PORT uses TLS when a CA or client
// certificate is given.
func (s Settings) usesTLS(endpoint string) bool {
	scheme, _, _ := splitEndpoint(endpoint)
	switch scheme {
	case "https":
		return true
	case "http":
		return false
	}
	return s.CAFile != "" || s.CertFile != ""
}

// Identity is what makes two settings name the same store: the embedded
// file's absolute path, the etcd cluster's endpoints and prefix, or the
// serve endpoint. Credentials are not part of it.
func (s Settings) Identity(dir string) string {
	switch s.Kind() {
	case Etcd:
		hosts := make([]string, 0, len(s.Endpoints))
		for _, endpoint := range s.Endpoints {
			_, hostPort, _ := splitEndpoint(endpoint)
			hosts = append(hosts, strings.ToLower(hostPort))
		}
		slices.Sort(hosts)
		return "etcd " + strings.Join(hosts, ",") + " prefix " + s.prefix()
	case Serve:
		_, hostPort, _ := splitEndpoint(s.Address)
		return "serve " + strings.ToLower(hostPort)
	}
	return "embedded " + s.AbsPath(dir)
}

func (s Settings) prefix() string {
	if s.Prefix == "" {
		return DefaultPrefix
	}
	return s.Prefix
}

// AbsPath is the embedded store's file, resolved against dir.
func (s Settings) AbsPath(dir string) string {
	path := s.Path
	if path == "" {
		path = DefaultPath
	}
	return resolvePath(dir, path)
}

func resolvePath(dir, path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// Describe names the store for messages.
func (s Settings) Describe() string {
	switch s.Kind() {
	case Etcd:
		text := "the etcd cluster at " + strings.Join(s.Endpoints, ", ")
		if s.Prefix != "" && s.Prefix != DefaultPrefix {
			text += " (key prefix " + s.Prefix + ")"
		}
		return text
	case Serve:
		return "the terrane serve endpoint " + s.Address
	}
	path := s.Path
	if path == "" {
		path = DefaultPath
	}
	return "the embedded store " + path
}

// hostOf returns the host of an endpoint, without scheme or port.
func hostOf(endpoint string) string {
	_, hostPort, err := splitEndpoint(endpoint)
	if err != nil {
		return ""
	}
	host, _, _ := net.SplitHostPort(hostPort)
	return host
}

// isLoopback reports whether host is this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

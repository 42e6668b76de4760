package discovery

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// testProviderType is the real test provider the registry serves.
const testProviderType = "tpf"

// releasePackage is one zip the test registry serves.
type releasePackage struct {
	platform Platform
	filename string
	content  []byte
}

var (
	packagesOnce sync.Once
	packagesByV  map[string][]releasePackage
)

// testReleases zips the real tpf provider once per test binary as versions
// 1.0.0, 1.1.0 and 2.0.0 for this platform (and a fake one for
// darwin_arm64), as a registry publishes them.
func testReleases(t *testing.T) map[string][]releasePackage {
	t.Helper()
	mirror := providertest.Build(t)
	packagesOnce.Do(func() {
		binary, err := os.ReadFile(mirror.Executable(testProviderType))
		if err != nil {
			t.Fatal(err)
		}
		packagesByV = map[string][]releasePackage{}
		for _, version := range []string{"1.0.0", "1.1.0", "2.0.0"} {
			for _, platform := range []Platform{CurrentPlatform(), {OS: "darwin", Arch: "arm64"}} {
				content := binary
				if platform != CurrentPlatform() {
					content = []byte("not for this machine " + version)
				}
				packagesByV[version] = append(packagesByV[version], releasePackage{
					platform: platform,
					filename: fmt.Sprintf("terraform-provider-%s_%s_%s.zip", testProviderType, version, platform),
					content:  zipExecutable(t, "terraform-provider-"+testProviderType+"_v"+version, content),
				})
			}
		}
	})
	return packagesByV
}

func zipExecutable(t *testing.T, name string, content []byte) []byte {
	var buf bytes.Buffer
	writer := zip.NewWriter(&buf)
	header := &zip.FileHeader{Name: name, Method: zip.Store}
	header.SetMode(0o755)
	w, err := writer.CreateHeader(header)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(content); err != nil {
		t.Fatal(err)
	}
	if err := writer.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// testRegistry serves the provider registry protocol on loopback TLS, with
// SHA256SUMS files signed by a key made for the test.
type testRegistry struct {
	t        *testing.T
	server   *httptest.Server
	releases map[string][]releasePackage
	key      *openpgp.Entity
	// signWith, when set, signs the checksums with another key, as an
	// attacker who replaced them would.
	signWith *openpgp.Entity
	// tamper, when set, serves different package bytes than the checksums
	// describe.
	tamper    bool
	downloads atomic.Int32
	// failFirst makes the first N download requests fail with 503.
	failFirst atomic.Int32
	token     string
}

func newTestRegistry(t *testing.T) *testRegistry {
	t.Helper()
	registry := &testRegistry{t: t, releases: testReleases(t), key: newSigningKey(t, "Test Registry")}
	registry.server = httptest.NewTLSServer(http.HandlerFunc(registry.serve))
	t.Cleanup(registry.server.Close)
	return registry
}

func newSigningKey(t *testing.T, name string) *openpgp.Entity {
	t.Helper()
	entity, err := openpgp.NewEntity(name, "", "release@example.com", nil)
	if err != nil {
		t.Fatal(err)
	}
	return entity
}

// host is the registry's hostname, as provider addresses name it.
func (r *testRegistry) host() string {
	return strings.TrimPrefix(r.server.URL, "https://")
}

func (r *testRegistry) provider(t *testing.T) tfaddr.Provider {
	return mustProvider(t, r.host()+"/terrane/"+testProviderType)
}

// network is how Terrane reaches the test server: its TLS client, quick
// retries.
func (r *testRegistry) network() *Network {
	return &Network{Client: r.server.Client(), RetryWait: 1, Credentials: NewCredentials(nil, nil)}
}

func (r *testRegistry) serve(w http.ResponseWriter, req *http.Request) {
	if r.token != "" && req.Header.Get("Authorization") != "Bearer "+r.token {
		http.Error(w, "no entry", http.StatusUnauthorized)
		return
	}
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	switch {
	case req.URL.Path == "/.well-known/terraform.json":
		serveJSON(w, map[string]string{"providers.v1": "/v1/providers/"})
	case len(parts) == 5 && parts[0] == "v1" && parts[4] == "versions":
		r.serveVersions(w, parts[2], parts[3])
	case len(parts) == 8 && parts[0] == "v1" && parts[5] == "download":
		r.serveDownload(w, parts[4], Platform{OS: parts[6], Arch: parts[7]})
	case len(parts) == 2 && parts[0] == "files":
		r.serveFile(w, req, parts[1])
	default:
		http.NotFound(w, req)
	}
}

func (r *testRegistry) serveVersions(w http.ResponseWriter, namespace, typeName string) {
	if namespace != "terrane" || typeName != testProviderType {
		http.Error(w, "no such provider", http.StatusNotFound)
		return
	}
	type platform struct {
		OS   string `json:"os"`
		Arch string `json:"arch"`
	}
	type version struct {
		Version   string     `json:"version"`
		Protocols []string   `json:"protocols"`
		Platforms []platform `json:"platforms"`
	}
	var list []version
	for _, name := range sortedKeys(r.releases) {
		entry := version{Version: name, Protocols: []string{"6.0"}}
		for _, pkg := range r.releases[name] {
			entry.Platforms = append(entry.Platforms, platform{pkg.platform.OS, pkg.platform.Arch})
		}
		list = append(list, entry)
	}
	serveJSON(w, map[string]any{"versions": list})
}

func (r *testRegistry) serveDownload(w http.ResponseWriter, version string, platform Platform) {
	for _, pkg := range r.releases[version] {
		if pkg.platform != platform {
			continue
		}
		var armored bytes.Buffer
		armorWriter, _ := armor.Encode(&armored, openpgp.PublicKeyType, nil)
		_ = r.key.Serialize(armorWriter)
		armorWriter.Close()
		serveJSON(w, map[string]any{
			"protocols": []string{"6.0"}, "os": platform.OS, "arch": platform.Arch,
			"filename": pkg.filename, "download_url": "/files/" + pkg.filename,
			"shasums_url": "/files/SHA256SUMS-" + version, "shasums_signature_url": "/files/SHA256SUMS-" + version + ".sig",
			"shasum": sha256Hex(pkg.content),
			"signing_keys": map[string]any{"gpg_public_keys": []map[string]string{
				{"key_id": r.key.PrimaryKey.KeyIdString(), "ascii_armor": armored.String()}}},
		})
		return
	}
	http.NotFound(w, nil)
}

func (r *testRegistry) serveFile(w http.ResponseWriter, req *http.Request, name string) {
	if version, isSums := strings.CutPrefix(name, "SHA256SUMS-"); isSums {
		version, isSignature := strings.CutSuffix(version, ".sig")
		sums := r.sums(version)
		if !isSignature {
			io.WriteString(w, sums)
			return
		}
		signer := r.key
		if r.signWith != nil {
			signer = r.signWith
		}
		if err := openpgp.DetachSign(w, signer, strings.NewReader(sums), nil); err != nil {
			r.t.Error(err)
		}
		return
	}
	for _, pkgs := range r.releases {
		for _, pkg := range pkgs {
			if pkg.filename != name {
				continue
			}
			if r.failFirst.Add(-1) >= 0 {
				http.Error(w, "try later", http.StatusServiceUnavailable)
				return
			}
			r.downloads.Add(1)
			content := pkg.content
			if r.tamper {
				content = zipExecutable(r.t, "terraform-provider-"+testProviderType, []byte("#!/bin/sh\necho owned\n"))
			}
			http.ServeContent(w, req, name, timeZero, bytes.NewReader(content))
			return
		}
	}
	http.NotFound(w, req)
}

func (r *testRegistry) sums(version string) string {
	var b strings.Builder
	for _, pkg := range r.releases[version] {
		fmt.Fprintf(&b, "%s  %s\n", sha256Hex(pkg.content), pkg.filename)
	}
	return b.String()
}

func (r *testRegistry) zipHash(version string, platform Platform) Hash {
	for _, pkg := range r.releases[version] {
		if pkg.platform == platform {
			return Hash(HashSchemeZip + sha256Hex(pkg.content))
		}
	}
	r.t.Fatalf("no package %s %s", version, platform)
	return ""
}

// timeZero leaves Last-Modified out of served files.
var timeZero time.Time

func sha256Hex(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

func serveJSON(w http.ResponseWriter, value any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(value)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

func mustVersion(raw string) versions.Version { return versions.MustParseVersion(raw) }

func hostOf(t *testing.T, rawURL string) svchost.Hostname {
	parsed, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	host, err := svchost.ForComparison(parsed.Host)
	if err != nil {
		t.Fatal(err)
	}
	return host
}

func assertSameFile(t *testing.T, got, want string) {
	t.Helper()
	gotBytes, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	wantBytes, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotBytes, wantBytes) {
		t.Fatalf("%s differs from %s", got, want)
	}
	if info, err := os.Stat(got); err != nil || info.Mode().Perm()&0o100 == 0 {
		t.Fatalf("%s is not executable", filepath.Base(got))
	}
}

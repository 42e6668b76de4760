package cliconfig

import (
	"strings"
	"testing"

	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
)

const nativeFile = `
plugin_cache_dir = "/var/cache/plugins"
plugin_cache_may_break_dependency_lock_file = true
disable_checkpoint = true

credentials "app.example.com" {
  token = "secret-token"
}

provider_installation {
  dev_overrides {
    "hashicorp/null"           = "/home/dev/null-provider"
    "example.com/acme/widgets" = "/home/dev/widgets"
  }
  filesystem_mirror {
    path    = "/opt/mirror"
    include = ["registry.terraform.io/*/*", "hashicorp/*"]
  }
  network_mirror {
    url     = "https://mirror.example.com/providers/"
    exclude = ["example.com/*/*"]
  }
  direct {
    exclude = ["example.com/acme/*"]
  }
}
`

const jsonFile = `{
  "plugin_cache_dir": "/var/cache/plugins",
  "plugin_cache_may_break_dependency_lock_file": true,
  "credentials": {"app.example.com": {"token": "secret-token"}},
  "provider_installation": {
    "dev_overrides": {
      "hashicorp/null": "/home/dev/null-provider",
      "example.com/acme/widgets": "/home/dev/widgets"
    },
    "filesystem_mirror": {"path": "/opt/mirror", "include": ["registry.terraform.io/*/*", "hashicorp/*"]},
    "network_mirror": {"url": "https://mirror.example.com/providers/", "exclude": ["example.com/*/*"]},
    "direct": {"exclude": ["example.com/acme/*"]}
  }
}`

// TestParseFullFile checks that native and JSON syntax give the same
// settings.
func TestParseFullFile(t *testing.T) {
	for name, src := range map[string]string{"native": nativeFile, "json": jsonFile} {
		t.Run(name, func(t *testing.T) {
			config, diagnostics := Parse([]byte(src), "test.tfrc")
			if len(diagnostics) > 0 {
				t.Fatalf("unexpected diagnostics: %v", diagnostics)
			}
			if config.PluginCacheDir != "/var/cache/plugins" || !config.PluginCacheMayBreakDependencyLockFile {
				t.Errorf("plugin cache settings = %q, %v", config.PluginCacheDir, config.PluginCacheMayBreakDependencyLockFile)
			}
			if got := config.Credentials[svchost.Hostname("app.example.com")].Token; got != "secret-token" {
				t.Errorf("credentials token = %q", got)
			}
			installation := config.ProviderInstallation
			if installation == nil || installation.Implied {
				t.Fatalf("provider installation = %+v, want the written block", installation)
			}
			wantOverrides := map[tfaddr.Provider]string{
				tfaddr.MustParseProviderSource("registry.opentofu.org/hashicorp/null"): "/home/dev/null-provider",
				tfaddr.MustParseProviderSource("example.com/acme/widgets"):             "/home/dev/widgets",
			}
			if len(installation.DevOverrides) != len(wantOverrides) {
				t.Errorf("dev overrides = %v, want %v", installation.DevOverrides, wantOverrides)
			}
			for provider, dir := range wantOverrides {
				if installation.DevOverrides[provider] != dir {
					t.Errorf("dev override for %s = %q, want %q", provider, installation.DevOverrides[provider], dir)
				}
			}
			var kinds []string
			for _, method := range installation.Methods {
				kinds = append(kinds, string(method.Kind))
			}
			if got := strings.Join(kinds, ","); got != "filesystem_mirror,network_mirror,direct" {
				t.Fatalf("methods = %s, want them in written order", got)
			}
			mirror, network, direct := installation.Methods[0], installation.Methods[1], installation.Methods[2]
			if mirror.Path != "/opt/mirror" || network.URL != "https://mirror.example.com/providers/" {
				t.Errorf("mirror path %q, network url %q", mirror.Path, network.URL)
			}
			aws := tfaddr.MustParseProviderSource("registry.terraform.io/hashicorp/aws")
			widgets := tfaddr.MustParseProviderSource("example.com/acme/widgets")
			if !mirror.Matches(aws) || mirror.Matches(widgets) {
				t.Errorf("filesystem mirror include patterns select the wrong providers")
			}
			if network.Matches(widgets) || !network.Matches(aws) {
				t.Errorf("network mirror exclude patterns select the wrong providers")
			}
			if direct.Matches(widgets) || !direct.Matches(aws) {
				t.Errorf("direct exclude patterns select the wrong providers")
			}
		})
	}
}

// TestParseSyntaxError reports a file that does not parse as OpenTofu
// does: the parser's message, naming the file and position, as the summary.
func TestParseSyntaxError(t *testing.T) {
	_, diagnostics := Parse([]byte("provider_installation {\n  nosuch\n"), "/home/u/.terraformrc")
	want := "Error parsing /home/u/.terraformrc: At 3:1: key 'nosuch' expected start of object ('{') or assignment ('=')"
	if len(diagnostics) != 1 || diagnostics[0].Summary != want || diagnostics[0].Severity != diags.Error {
		t.Errorf("diagnostics = %v, want one error %q", diagnostics, want)
	}
}

// TestParseErrorsNameLine checks that each mistake is reported at its line
// with a message that says what is wrong.
func TestParseErrorsNameLine(t *testing.T) {
	tests := []struct {
		name, src   string
		wantLine    int
		wantSummary string
		wantWarning bool
	}{
		{"unknown method", "provider_installation {\n  ftp_mirror {}\n}\n", 2, "Unknown provider installation method", false},
		{"mirror without path", "provider_installation {\n\n  filesystem_mirror {\n  }\n}\n", 3, "Missing filesystem mirror path", false},
		{"bad pattern", "provider_installation {\n  direct {\n    include = [\"*/hashicorp/aws\"]\n  }\n}\n", 3, "Invalid provider pattern in include", false},
		{"bad override address", "provider_installation {\n  dev_overrides {\n    \"not a/valid/addr/x\" = \"/x\"\n  }\n}\n", 3, "Invalid dev_overrides entry", false},
		{"http mirror", "provider_installation {\n  network_mirror {\n    url = \"http://insecure.example.com/\"\n  }\n}\n", 3, "Invalid network mirror URL", false},
		{"cache dir not string", "plugin_cache_dir = true\n", 1, "Invalid plugin_cache_dir", false},
		{"two blocks", "provider_installation {\n direct {}\n}\nprovider_installation {\n direct {}\n}\n", 4, "Duplicate provider_installation block", false},
		{"unknown setting", "\nplugin_cach_dir = \"/x\"\n", 2, "Unknown CLI configuration setting", true},
		{"unknown method setting", "provider_installation {\n  direct {\n    path = \"/x\"\n  }\n}\n", 3, "Unknown direct setting", false},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			_, diagnostics := Parse([]byte(test.src), "/home/u/.terraformrc")
			if len(diagnostics) == 0 {
				t.Fatal("no diagnostics")
			}
			diag := diagnostics[0]
			if diag.Summary != test.wantSummary {
				t.Errorf("summary = %q, want %q (%v)", diag.Summary, test.wantSummary, diagnostics)
			}
			if (diag.Severity == diags.Warning) != test.wantWarning {
				t.Errorf("severity = %v", diag.Severity)
			}
			if diag.Subject == nil || diag.Subject.Filename != "/home/u/.terraformrc" || diag.Subject.Start.Line != test.wantLine {
				t.Errorf("subject = %+v, want line %d of the file", diag.Subject, test.wantLine)
			}
		})
	}
}

func TestParseProviderPattern(t *testing.T) {
	tests := []struct {
		raw, want, wantErr string
	}{
		{raw: "hashicorp/aws", want: "registry.opentofu.org/hashicorp/aws"},
		{raw: "hashicorp/*", want: "registry.opentofu.org/hashicorp/*"},
		{raw: "Example.COM/Acme/*", want: "example.com/acme/*"},
		{raw: "*/*/*", want: "*/*/*"},
		{raw: "*/aws", wantErr: "only trailing parts may be *"},
		{raw: "*/hashicorp/*", wantErr: "only trailing parts may be *"},
		{raw: "aws", wantErr: "is not a provider pattern"},
		{raw: "a/b/c/d", wantErr: "is not a provider pattern"},
		{raw: "hashicorp/a_b c", wantErr: "invalid part"},
	}
	for _, test := range tests {
		pattern, err := ParseProviderPattern(test.raw)
		switch {
		case test.wantErr != "" && (err == nil || !strings.Contains(err.Error(), test.wantErr)):
			t.Errorf("ParseProviderPattern(%q) error = %v, want one containing %q", test.raw, err, test.wantErr)
		case test.wantErr == "" && err != nil:
			t.Errorf("ParseProviderPattern(%q): %v", test.raw, err)
		case test.wantErr == "" && pattern.String() != test.want:
			t.Errorf("ParseProviderPattern(%q) = %s, want %s", test.raw, pattern, test.want)
		}
	}
}

func mustProvider(t *testing.T, raw string) tfaddr.Provider {
	t.Helper()
	provider, err := addrs.ParseProviderSource(raw)
	if err != nil {
		t.Fatal(err)
	}
	return provider
}

package logging

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in      string
		want    hclog.Level
		wantErr bool
	}{
		{"", hclog.Off, false},
		{"trace", hclog.Trace, false},
		{"DEBUG", hclog.Debug, false},
		{" info ", hclog.Info, false},
		{"warn", hclog.Warn, false},
		{"error", hclog.Error, false},
		{"off", hclog.Off, false},
		{"verbose", hclog.Off, true},
		{"1", hclog.Off, true},
	}
	for _, tt := range tests {
		got, err := ParseLevel(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "trace, debug, info, warn, error, off") {
			t.Errorf("ParseLevel(%q) error does not list the valid levels: %v", tt.in, err)
		}
	}
}

func TestFromEnvAppendsToLogPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terrane.log")
	if err := os.WriteFile(path, []byte("earlier run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvLog, "debug")
	t.Setenv(EnvLogPath, path)

	logger := FromEnv().Named("engine")
	logger.Debug("walking the graph", "nodes", 3)
	logger.Trace("too verbose to keep")

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.HasPrefix(text, "earlier run\n") {
		t.Errorf("log file was truncated instead of appended to:\n%s", text)
	}
	if !strings.Contains(text, "terrane.engine: walking the graph: nodes=3") {
		t.Errorf("debug line missing from the log file:\n%s", text)
	}
	if strings.Contains(text, "too verbose") {
		t.Errorf("a trace line was kept at level debug:\n%s", text)
	}
}

func TestFromEnvDefaultsToOff(t *testing.T) {
	t.Setenv(EnvLog, "")
	if level := FromEnv().GetLevel(); level != hclog.Off {
		t.Errorf("level with %s unset = %v, want off", EnvLog, level)
	}
}

func TestProviderEnv(t *testing.T) {
	tests := []struct {
		level hclog.Level
		want  string
	}{
		{hclog.Off, "OFF"},
		{hclog.NoLevel, "OFF"},
		{hclog.Trace, "TRACE"},
		{hclog.Warn, "WARN"},
	}
	for _, tt := range tests {
		env := ProviderEnv(tt.level)
		for _, name := range []string{"TF_LOG", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_SDK_HELPER_SCHEMA", "TF_LOG_PROVIDER"} {
			if !slices.Contains(env, name+"="+tt.want) {
				t.Errorf("ProviderEnv(%v) lacks %s=%s: %v", tt.level, name, tt.want, env)
			}
		}
		// The SDKs parse levels with hclog.LevelFromString; the value
		// must mean the intended level there, not "no level" (= trace).
		if got := hclog.LevelFromString(tt.want); got == hclog.NoLevel {
			t.Errorf("hclog does not understand %q", tt.want)
		}
	}
}

func TestWithProviderEnvOverridesUserLogVariables(t *testing.T) {
	base := []string{"HOME=/home/u", "TF_LOG=trace", "TF_LOG_PROVIDER_TPF=trace", "TF_LOG_SDK_PROTO=debug", "TF_LOGX=1"}
	got := WithProviderEnv(base, hclog.Off)
	for _, kv := range got {
		if strings.HasSuffix(kv, "=trace") || kv == "TF_LOG_SDK_PROTO=debug" {
			t.Errorf("user's %s survived; providers would log while Terrane logs nothing", kv)
		}
	}
	for _, keep := range []string{"HOME=/home/u", "TF_LOGX=1", "TF_LOG=OFF", "TF_LOG_SDK_PROTO=OFF"} {
		if !slices.Contains(got, keep) {
			t.Errorf("WithProviderEnv lost or lacks %s: %v", keep, got)
		}
	}
}

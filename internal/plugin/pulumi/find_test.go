package pulumi

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindPicksNewestPluginVersion(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PULUMI_HOME", t.TempDir())
	for _, version := range []string{"0.9.0", "0.10.0", "0.2.1"} {
		path := filepath.Join(dir, "resource-tpulumi-v"+version, "pulumi-resource-tpulumi")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Find("tpulumi", dir)
	if err != nil || filepath.Base(filepath.Dir(got)) != "resource-tpulumi-v0.10.0" {
		t.Errorf("Find = %q, %v; want the 0.10.0 plugin", got, err)
	}
	if _, err := Find("absent", dir); err == nil {
		t.Error("Find of an absent plugin succeeded")
	}
}

package cloud

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestPutGetDeleteRoundTrip(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"name": "a", "big": json.Number("123456789012345678901234567890.5")}
	if err := c.Put("tpf_thing", "x1", in); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(c.Root, "tpf_thing", "x1.json")); err != nil {
		t.Fatalf("object file not at documented path: %v", err)
	}
	var out map[string]any
	if err := c.Get("tpf_thing", "x1", &out); err != nil {
		t.Fatal(err)
	}
	if out["big"] != json.Number("123456789012345678901234567890.5") || out["name"] != "a" {
		t.Fatalf("round trip changed the object: %#v", out)
	}
	ids, err := c.List("tpf_thing")
	if err != nil || len(ids) != 1 || ids[0] != "x1" {
		t.Fatalf("List = %v, %v; want [x1]", ids, err)
	}
	if err := c.Delete("tpf_thing", "x1"); err != nil {
		t.Fatal(err)
	}
	if err := c.Get("tpf_thing", "x1", &out); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete = %v, want ErrNotFound", err)
	}
	if err := c.Delete("tpf_thing", "x1"); err != nil {
		t.Fatalf("deleting an absent object: %v", err)
	}
}

func TestPutLeavesNoTemporaryFiles(t *testing.T) {
	c, _ := Open(t.TempDir())
	for range 3 {
		if err := c.PutRaw("k", "id", []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(c.Root, "k"))
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only id.json", len(entries))
	}
}

func TestOpenRoot(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvRoot, dir)
	c, err := Open("")
	if err != nil || c.Root != dir {
		t.Fatalf("Open(\"\") = %v, %v; want root from %s", c, err, EnvRoot)
	}
	t.Setenv(EnvRoot, "")
	if _, err := Open(""); err == nil {
		t.Fatal("Open with no root and no environment variable succeeded")
	}
}

func TestRejectsPathLikeNames(t *testing.T) {
	c, _ := Open(t.TempDir())
	for _, id := range []string{"", "..", "a/b", `a\b`} {
		if err := c.PutRaw("k", id, nil); err == nil {
			t.Errorf("PutRaw accepted id %q", id)
		}
	}
}

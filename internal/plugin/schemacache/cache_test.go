package schemacache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestBinaryHashIsRememberedUntilTheFileChanges(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "terraform-provider-x")
	writeFile(t, exe, "version one")

	first := Open(filepath.Join(dir, "cache"))
	hash, err := first.BinaryHash(exe)
	if err != nil {
		t.Fatal(err)
	}
	if want := sha256Hex("version one"); hash != want {
		t.Fatalf("hash = %s, want %s", hash, want)
	}

	// A new process (new Cache) trusts the remembered hash while size and
	// mtime match: overwrite the content behind its back, same size and
	// mtime, and it must still answer from the memo.
	info, _ := os.Stat(exe)
	writeFile(t, exe, "version 1ne")
	if err := os.Chtimes(exe, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	second := Open(filepath.Join(dir, "cache"))
	if again, _ := second.BinaryHash(exe); again != hash {
		t.Errorf("hash was recomputed although size and mtime did not change")
	}

	// A real upgrade changes the mtime: the hash must follow.
	later := info.ModTime().Add(time.Second)
	writeFile(t, exe, "version two, longer")
	if err := os.Chtimes(exe, later, later); err != nil {
		t.Fatal(err)
	}
	if changed, _ := second.BinaryHash(exe); changed != sha256Hex("version two, longer") {
		t.Errorf("hash after the binary changed = %s, want the new content's", changed)
	}
}

func TestStoreAndLoad(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "nested", "cache"))
	if _, ok := c.Load("abc"); ok {
		t.Fatal("empty cache reported a hit")
	}
	if err := c.Store("abc", []byte("schema bytes")); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Load("abc")
	if !ok || !bytes.Equal(got, []byte("schema bytes")) {
		t.Fatalf("Load = %q, %v", got, ok)
	}
	entries, _ := os.ReadDir(c.Dir())
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".pb" && e.Name() != "hashes" {
			t.Errorf("leftover file in the cache: %s", e.Name())
		}
	}
}

func TestDefaultDirHonoursEnv(t *testing.T) {
	t.Setenv(EnvDir, "/tmp/somewhere")
	if dir, err := DefaultDir(); err != nil || dir != "/tmp/somewhere" {
		t.Errorf("DefaultDir() = %q, %v", dir, err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

package schemacache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// EnvDir overrides where schemas are cached.
const EnvDir = "TERRANE_SCHEMA_CACHE_DIR"

// DefaultDir is TERRANE_SCHEMA_CACHE_DIR, or terrane/schemas in the user's
// cache directory.
func DefaultDir() (string, error) {
	if dir := os.Getenv(EnvDir); dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding a directory for the provider schema cache: %w (set %s)", err, EnvDir)
	}
	return filepath.Join(base, "terrane", "schemas"), nil
}

// Cache is a schema cache in one directory. It is safe for concurrent use,
// also by several processes: every file is replaced atomically.
type Cache struct {
	dir string

	mu     sync.Mutex
	hashes map[string]fileStamp // executable path → what was hashed
}

// fileStamp identifies one version of a file without reading it.
type fileStamp struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime_ns"`
	SHA256  string `json:"sha256"`
}

// Open returns the cache in dir; the directory is created on first write.
func Open(dir string) *Cache {
	return &Cache{dir: dir, hashes: make(map[string]fileStamp)}
}

// Dir is the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// BinaryHash returns the hex SHA-256 of the executable at path. The answer
// is remembered, in memory and on disk, for as long as the file keeps its
// size and modification time.
func (c *Cache) BinaryHash(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("provider executable: %w", err)
	}
	want := fileStamp{Path: abs, Size: info.Size(), ModTime: info.ModTime().UnixNano()}

	c.mu.Lock()
	known, ok := c.hashes[abs]
	c.mu.Unlock()
	if !ok {
		known, ok = c.readStamp(abs)
	}
	if ok && known.Size == want.Size && known.ModTime == want.ModTime && known.SHA256 != "" {
		c.remember(known)
		return known.SHA256, nil
	}

	want.SHA256, err = hashFile(abs)
	if err != nil {
		return "", err
	}
	c.remember(want)
	if data, err := json.Marshal(want); err == nil {
		// Failing to remember the hash only costs a rehash next time.
		_ = c.writeAtomic(c.stampPath(abs), data)
	}
	return want.SHA256, nil
}

func (c *Cache) remember(stamp fileStamp) {
	c.mu.Lock()
	c.hashes[stamp.Path] = stamp
	c.mu.Unlock()
}

func (c *Cache) stampPath(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(c.dir, "hashes", hex.EncodeToString(sum[:])+".json")
}

func (c *Cache) readStamp(abs string) (fileStamp, bool) {
	data, err := os.ReadFile(c.stampPath(abs))
	if err != nil {
		return fileStamp{}, false
	}
	var stamp fileStamp
	if json.Unmarshal(data, &stamp) != nil || stamp.Path != abs {
		return fileStamp{}, false
	}
	return stamp, true
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("hashing provider executable: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing provider executable %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (c *Cache) schemaPath(binaryHash string) string {
	return filepath.Join(c.dir, binaryHash+".schema.pb")
}

// Load returns the cached schema of the executable with the given hash.
func (c *Cache) Load(binaryHash string) ([]byte, bool) {
	data, err := os.ReadFile(c.schemaPath(binaryHash))
	if err != nil {
		return nil, false
	}
	return data, true
}

// Store caches a schema for the executable with the given hash.
func (c *Cache) Store(binaryHash string, schema []byte) error {
	return c.writeAtomic(c.schemaPath(binaryHash), schema)
}

// writeAtomic writes through a temporary file and a rename, so a reader
// (maybe another Terrane process) sees the old file or the new one, never
// half of one.
func (c *Cache) writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the schema cache directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("writing the schema cache: %w", err)
	}
	_, writeErr := tmp.Write(data)
	closeErr := tmp.Close()
	if err := errors.Join(writeErr, closeErr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing the schema cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing the schema cache: %w", err)
	}
	return nil
}

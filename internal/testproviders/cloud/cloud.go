package cloud

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// EnvRoot names the environment variable that supplies the cloud's root
// directory when a provider configuration does not set one.
const EnvRoot = "TESTCLOUD_DIR"

// ErrNotFound reports that an object does not exist in the cloud.
var ErrNotFound = errors.New("object not found")

// Cloud is a handle on one root directory. It holds no state besides the
// path, so any number of handles (and processes) may share a root.
type Cloud struct {
	Root string
}

// Open returns a Cloud rooted at root, or at $TESTCLOUD_DIR when root is
// empty. It fails when neither names a directory, because a provider that
// silently wrote objects into its working directory would hide test bugs.
func Open(root string) (*Cloud, error) {
	if root == "" {
		root = os.Getenv(EnvRoot)
	}
	if root == "" {
		return nil, fmt.Errorf("no cloud root directory: set the provider attribute root_dir or the environment variable %s", EnvRoot)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("creating cloud root %s: %w", root, err)
	}
	return &Cloud{Root: root}, nil
}

// NewID returns a fresh random object identifier.
func NewID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b[:])
}

// Path returns the file that holds object id of the given kind.
func (c *Cloud) Path(kind, id string) string {
	return filepath.Join(c.Root, kind, id+".json")
}

func validName(what, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("invalid cloud object %s %q: it must be non-empty and contain no path separators", what, name)
	}
	return nil
}

// PutRaw stores data as object id of kind, replacing any previous content
// atomically.
func (c *Cloud) PutRaw(kind, id string, data []byte) error {
	if err := validName("kind", kind); err != nil {
		return err
	}
	if err := validName("id", id); err != nil {
		return err
	}
	dir := filepath.Join(c.Root, kind)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+id+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s/%s: %w", kind, id, err)
	}
	_, writeErr := tmp.Write(data)
	closeErr := tmp.Close()
	if err := errors.Join(writeErr, closeErr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s/%s: %w", kind, id, err)
	}
	if err := os.Rename(tmp.Name(), c.Path(kind, id)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s/%s: %w", kind, id, err)
	}
	return nil
}

// GetRaw returns the stored bytes of object id of kind, or an error wrapping
// ErrNotFound when the file does not exist.
func (c *Cloud) GetRaw(kind, id string) ([]byte, error) {
	if err := errors.Join(validName("kind", kind), validName("id", id)); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(c.Path(kind, id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s %q: %w", kind, id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s %q: %w", kind, id, err)
	}
	return data, nil
}

// Put stores v, encoded as indented JSON, as object id of kind.
func (c *Cloud) Put(kind, id string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s %q: %w", kind, id, err)
	}
	return c.PutRaw(kind, id, append(data, '\n'))
}

// Get decodes object id of kind into v. Numbers decode as json.Number so
// large and precise values survive.
func (c *Cloud) Get(kind, id string, v any) error {
	data, err := c.GetRaw(kind, id)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("decoding %s: %w", c.Path(kind, id), err)
	}
	return nil
}

// Exists reports whether object id of kind is stored.
func (c *Cloud) Exists(kind, id string) bool {
	_, err := os.Stat(c.Path(kind, id))
	return err == nil
}

// Delete removes object id of kind. Deleting an absent object is not an
// error: the desired end state is reached either way.
func (c *Cloud) Delete(kind, id string) error {
	if err := errors.Join(validName("kind", kind), validName("id", id)); err != nil {
		return err
	}
	err := os.Remove(c.Path(kind, id))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("deleting %s %q: %w", kind, id, err)
	}
	return nil
}

// List returns the identifiers of every stored object of kind, sorted.
func (c *Cloud) List(kind string) ([]string, error) {
	if err := validName("kind", kind); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(c.Root, kind))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", kind, err)
	}
	var ids []string
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue
		}
		ids = append(ids, strings.TrimSuffix(name, ".json"))
	}
	sort.Strings(ids)
	return ids, nil
}

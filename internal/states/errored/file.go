package errored

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/version"
)

// File is a file of unrecorded results, as read back.
type File struct {
	Path      string
	Workspace string
	Lineage   string
	// RunIDs are the runs whose results the file holds.
	RunIDs []string
	// State holds the instances to record; Deleted the ones to forget.
	State   *states.State
	Deleted []addrs.AbsResourceInstance
}

// Entries lists the file's instances, ordered by address.
func (f *File) Entries() []Entry { return entriesOf(f.State, f.Deleted) }

// Sealing is how the file is kept where state is encrypted: Seal encrypts
// the state file as it is written (or printed), Open decrypts what is read.
// A nil function leaves the data as it is, so the zero value writes and
// reads plain files.
type Sealing struct {
	Seal func(state []byte) ([]byte, error)
	Open func(stored []byte) ([]byte, error)
}

func (s Sealing) seal(state []byte) ([]byte, error) {
	if s.Seal == nil {
		return state, nil
	}
	return s.Seal(state)
}

func (s Sealing) open(stored []byte) ([]byte, error) {
	if s.Open == nil {
		return stored, nil
	}
	return s.Open(stored)
}

// WriteFile writes the results to FileName in dir, sealed with s, and
// returns the path it wrote. Results of earlier runs still in the file are
// kept beside these (an address both have gets this run's). A file of that
// name that is not this workspace's unrecorded results (OpenTofu's, say)
// is left alone and the results go to a file named after the run instead.
func (r *Results) WriteFile(dir string, s Sealing) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	path := filepath.Join(dir, FileName)
	merged := &File{Path: path, Workspace: r.workspace, Lineage: r.lineage, RunIDs: []string{r.runID}, State: states.NewState()}
	earlier, err := Read(path, s)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err == nil && earlier.Workspace == r.workspace:
		merged = earlier
		merged.Path = path
		if !slices.Contains(merged.RunIDs, r.runID) {
			merged.RunIDs = append(merged.RunIDs, r.runID)
		}
	default:
		merged.Path = filepath.Join(dir, "errored-"+r.runID+".tfstate")
	}
	deleted := map[string]addrs.AbsResourceInstance{}
	for _, addr := range merged.Deleted {
		deleted[addr.String()] = addr
	}
	for _, entry := range r.state.AllResourceInstances() {
		merged.State.SetResourceInstance(entry.Addr, entry.Instance.DeepCopy(), entry.ProviderConfig)
		delete(deleted, entry.Addr.String())
	}
	for key, addr := range r.deleted {
		merged.State.RemoveResourceInstance(addr)
		deleted[key] = addr
	}
	merged.Deleted = slices.Collect(maps.Values(deleted))
	return merged.Path, merged.write(s)
}

// Encode returns the results as the file would hold them, sealed with s,
// for when the file itself cannot be written: printed, they are the last
// copy.
func (r *Results) Encode(s Sealing) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := &File{Workspace: r.workspace, Lineage: r.lineage, RunIDs: []string{r.runID}, State: r.state, Deleted: slices.Collect(maps.Values(r.deleted))}
	src, err := f.encode()
	if err != nil {
		return nil, err
	}
	return s.seal(src)
}

func (f *File) encode() ([]byte, error) {
	deleted := make([]string, len(f.Deleted))
	for i, addr := range f.Deleted {
		deleted[i] = addr.String()
	}
	slices.Sort(deleted)
	var buf bytes.Buffer
	err := statefile.Write(&statefile.File{TerraformVersion: version.Version, Lineage: f.Lineage, State: f.State,
		Unrecorded: &statefile.Unrecorded{Workspace: f.Workspace, RunIDs: f.RunIDs, Deleted: deleted}}, &buf)
	return buf.Bytes(), err
}

// write replaces the file atomically and durably: a crash leaves either
// the old file or the new one, never a torn one.
func (f *File) write(s Sealing) error {
	src, err := f.encode()
	if err != nil {
		return fmt.Errorf("encoding %s: %w", f.Path, err)
	}
	if src, err = s.seal(src); err != nil {
		return fmt.Errorf("encrypting %s: %w", f.Path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), ".errored-*.tfstate")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone already once renamed
	if _, err := tmp.Write(src); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), f.Path)
}

// Read reads a file of unrecorded results, opened with s. A missing file
// is an error satisfying errors.Is(err, fs.ErrNotExist); a state file that
// is not one (no unrecorded-results marker) is an error satisfying
// errors.Is(err, ErrWholeState).
func Read(path string, s Sealing) (*File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if src, err = s.open(src); err != nil {
		return nil, fmt.Errorf("decrypting %s: %w", path, err)
	}
	sf, err := statefile.Read(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return FromStateFile(path, sf)
}

// ErrWholeState is the error for a state file that holds a whole state,
// not unrecorded results (OpenTofu's errored.tfstate, say).
var ErrWholeState = errors.New("a whole state, not the results of a run that could not record them")

// FromStateFile returns the unrecorded results a state file read from path
// holds, or an error satisfying errors.Is(err, ErrWholeState) if it holds
// a whole state instead.
func FromStateFile(path string, sf *statefile.File) (*File, error) {
	if sf.Unrecorded == nil {
		return nil, fmt.Errorf("%s is %w", path, ErrWholeState)
	}
	f := &File{Path: path, Workspace: sf.Unrecorded.Workspace, Lineage: sf.Lineage, RunIDs: sf.Unrecorded.RunIDs, State: sf.State}
	for _, name := range sf.Unrecorded.Deleted {
		addr, ds := addrs.ParseAbsResourceInstanceStr(name)
		if ds.HasErrors() {
			return nil, fmt.Errorf("%s: invalid deleted instance address %q: %s", path, name, ds.Error())
		}
		f.Deleted = append(f.Deleted, addr)
	}
	return f, nil
}

package planfile

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/proto/tfplan"
	"github.com/terrane/terrane/proto/tfplan/priorv1"
)

// ErrNotPlanFile is wrapped by the error Open returns for a file that is
// not a plan file at all: not a zip archive, a truncated one, or a zip
// without a plan in it.
var ErrNotPlanFile = errors.New("not a plan file")

// ErrUnsupportedVersion is wrapped by the error ReadPlan returns for a plan
// written in a format version this program does not read.
var ErrUnsupportedVersion = errors.New("unsupported plan format version")

// Reader reads the parts of an open plan file.
type Reader struct {
	path    string
	closer  io.Closer
	entries map[string]*zip.File
}

// Unseal turns a plan file's stored bytes into the plan file: decryption,
// when plans are encrypted.
type Unseal func(stored []byte) ([]byte, error)

// Open opens the plan file at path. It checks only that the file is a plan
// file; the Read methods decode its parts.
func Open(path string) (*Reader, error) {
	archive, err := zip.OpenReader(path)
	if err != nil {
		return nil, openError(path, err)
	}
	return newReader(path, &archive.Reader, archive)
}

// OpenSealed opens the plan file at path whose bytes unseal turns into the
// plan file (an encrypted plan file, decrypted).
func OpenSealed(path string, unseal Unseal) (*Reader, error) {
	stored, err := os.ReadFile(path)
	if err != nil {
		return nil, openError(path, err)
	}
	plain, err := unseal(stored)
	if err != nil {
		return nil, fmt.Errorf("plan file %s: %w", path, err)
	}
	archive, err := zip.NewReader(bytes.NewReader(plain), int64(len(plain)))
	if err != nil {
		return nil, openError(path, err)
	}
	return newReader(path, archive, io.NopCloser(nil))
}

func openError(path string, err error) error {
	switch {
	case errors.Is(err, zip.ErrFormat), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: %w: it is not a zip archive, or it was truncated; create it again with the plan command", path, ErrNotPlanFile)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("plan file %s does not exist", path)
	}
	return fmt.Errorf("opening plan file %s: %w", path, err)
}

func newReader(path string, archive *zip.Reader, closer io.Closer) (*Reader, error) {
	reader := &Reader{path: path, closer: closer, entries: make(map[string]*zip.File, len(archive.File))}
	for _, entry := range archive.File {
		reader.entries[entry.Name] = entry
	}
	if reader.entries[planEntryName] == nil {
		closer.Close()
		return nil, fmt.Errorf("%s: %w: the zip archive has no %q entry", path, ErrNotPlanFile, planEntryName)
	}
	return reader, nil
}

// Close closes the plan file.
func (r *Reader) Close() error { return r.closer.Close() }

// ReadPlan decodes the plan, with the prior records it was made from when
// the file has them (plan files of other tools do not).
func (r *Reader) ReadPlan() (*plans.Plan, error) {
	encoded, err := r.readEntry(planEntryName)
	if err != nil {
		return nil, err
	}
	raw := &tfplan.Plan{}
	if err := proto.Unmarshal(encoded, raw); err != nil {
		return nil, fmt.Errorf("%s: the plan is corrupt (%v); create it again with the plan command", r.path, err)
	}
	if raw.GetVersion() != tfplanFormatVersion {
		return nil, fmt.Errorf("%s: %w %d (written by %q); this program reads version %d, so create the plan again with this version",
			r.path, ErrUnsupportedVersion, raw.GetVersion(), raw.GetTerraformVersion(), tfplanFormatVersion)
	}
	plan, err := planFromProto(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.path, err)
	}
	plan.Saved = true
	if err := r.readPriorRecords(plan); err != nil {
		return nil, err
	}
	return plan, nil
}

func (r *Reader) readPriorRecords(plan *plans.Plan) error {
	if r.entries[priorRecordsEntryName] == nil {
		return nil
	}
	encoded, err := r.readEntry(priorRecordsEntryName)
	if err != nil {
		return err
	}
	raw := &priorv1.PriorRecords{}
	if err := proto.Unmarshal(encoded, raw); err != nil {
		return fmt.Errorf("%s: the prior records are corrupt (%v); create the plan again", r.path, err)
	}
	plan.Workspace = raw.GetWorkspace()
	plan.AbsentRecords = raw.GetAbsent()
	plan.PriorRecords = make([]plans.PriorRecord, 0, len(raw.GetRecords()))
	for _, record := range raw.GetRecords() {
		plan.PriorRecords = append(plan.PriorRecords, plans.PriorRecord{
			Name:                record.GetName(),
			Kind:                record.GetKind(),
			Uid:                 record.GetUid(),
			Generation:          record.GetGeneration(),
			Version:             record.GetVersion(),
			Data:                record.GetData(),
			PlannedDependencies: record.GetPlannedDependencies().GetAddresses(),
			DependenciesPlanned: record.GetPlannedDependencies() != nil,
		})
	}
	return nil
}

// ReadConfigSnapshot returns the configuration the plan was made from.
func (r *Reader) ReadConfigSnapshot() (*ConfigSnapshot, error) {
	manifestBytes, err := r.readEntry(configManifestName)
	if err != nil {
		return nil, err
	}
	var manifest []manifestEntry
	if err := json.Unmarshal(manifestBytes, &manifest); err != nil {
		return nil, fmt.Errorf("%s: the configuration manifest %s is corrupt: %v", r.path, configManifestName, err)
	}
	snapshot := &ConfigSnapshot{Modules: make(map[string]*SnapshotModule, len(manifest))}
	for _, entry := range manifest {
		snapshot.Modules[entry.Key] = &SnapshotModule{Dir: entry.Dir, SourceAddr: entry.SourceAddr, Version: entry.Version, Files: map[string][]byte{}}
	}
	for name := range r.entries {
		key, fileName, ok := splitModuleFileEntry(name)
		if !ok {
			continue
		}
		module := snapshot.Modules[key]
		if module == nil {
			return nil, fmt.Errorf("%s: the configuration snapshot has files of module %q, which its manifest does not list", r.path, key)
		}
		if module.Files[fileName], err = r.readEntry(name); err != nil {
			return nil, err
		}
	}
	return snapshot, nil
}

// ReadLockFile returns the dependency lock file as it was when planning, and
// false when the plan was made without one.
func (r *Reader) ReadLockFile() ([]byte, bool, error) {
	return r.readOptionalEntry(lockFileEntryName)
}

// ReadTerraformState returns the state v4 JSON documents a Terraform or
// OpenTofu plan file carries (the prior state and the previous run's
// state), for migration; false when the plan file has none.
func (r *Reader) ReadTerraformState() (prior, prevRun []byte, found bool, err error) {
	if prior, found, err = r.readOptionalEntry(terraformStateEntryName); err != nil || !found {
		return nil, nil, found, err
	}
	prevRun, _, err = r.readOptionalEntry(terraformPrevStateEntryName)
	return prior, prevRun, true, err
}

func (r *Reader) readOptionalEntry(name string) ([]byte, bool, error) {
	if r.entries[name] == nil {
		return nil, false, nil
	}
	content, err := r.readEntry(name)
	return content, err == nil, err
}

func (r *Reader) readEntry(name string) ([]byte, error) {
	entry := r.entries[name]
	if entry == nil {
		return nil, fmt.Errorf("%s: the plan file has no %q entry; create it again with the plan command", r.path, name)
	}
	file, err := entry.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: reading %s: %w", r.path, name, err)
	}
	defer file.Close()
	content, err := io.ReadAll(file)
	if err != nil {
		// zip.ErrChecksum and unexpected EOFs both mean damaged bytes.
		return nil, fmt.Errorf("%s: the %s entry is damaged (%v); create the plan again", r.path, name, err)
	}
	return content, nil
}

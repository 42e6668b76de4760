package planfile

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/proto/tfplan/priorv1"
)

// Entry names of the plan's parts inside the zip.
const (
	planEntryName         = "tfplan"
	priorRecordsEntryName = "priorrecords"
	lockFileEntryName     = ".terraform.lock.hcl"
	// Terraform and OpenTofu keep the prior state as state v4 JSON; Terrane
	// writes priorrecords instead but reads these from their plan files.
	terraformStateEntryName     = "tfstate"
	terraformPrevStateEntryName = "tfstate-prev"
)

// Contents is everything a plan file holds.
type Contents struct {
	Plan   *plans.Plan
	Config *ConfigSnapshot
	// LockFile is the dependency lock file's content; nil when there is none.
	LockFile []byte
}

// Create writes a plan file at path. It writes a temporary file beside path
// and renames it into place, so path is never left holding half a plan. The
// file is readable by its owner only: plans hold variable values and
// attribute values, sensitive ones included.
func Create(path string, contents Contents) error {
	return CreateSealed(path, contents, nil)
}

// Seal turns a plan file into the bytes stored for it: encryption, when
// plans are encrypted.
type Seal func(plan []byte) ([]byte, error)

// CreateSealed is Create storing what seal makes of the plan file; a nil
// seal stores the plan file itself.
func CreateSealed(path string, contents Contents, seal Seal) error {
	if contents.Plan == nil {
		return fmt.Errorf("writing plan file %s: no plan given", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing plan file %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := writeSealed(tmp, contents, seal); err != nil {
		tmp.Close()
		return fmt.Errorf("writing plan file %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing plan file %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing plan file %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing plan file %s: %w", path, err)
	}
	return nil
}

// writeSealed writes the plan file, or what seal makes of it: the plan is
// built in memory then, since the sealed form covers the whole archive.
func writeSealed(w io.Writer, contents Contents, seal Seal) error {
	if seal == nil {
		return writeArchive(w, contents)
	}
	var plain bytes.Buffer
	if err := writeArchive(&plain, contents); err != nil {
		return err
	}
	sealed, err := seal(plain.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(sealed)
	return err
}

func writeArchive(w io.Writer, contents Contents) error {
	archive := zip.NewWriter(w)
	// Entries are stamped with the plan's time, not the clock, so that the
	// same plan always makes the same bytes.
	modified := contents.Plan.Timestamp
	if modified.IsZero() {
		modified = time.Unix(0, 0)
	}
	add := func(name string, content []byte) error {
		entry, err := archive.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: modified})
		if err != nil {
			return err
		}
		_, err = entry.Write(content)
		return err
	}
	raw, err := planToProto(contents.Plan)
	if err != nil {
		return err
	}
	if err := addMessage(add, planEntryName, raw); err != nil {
		return err
	}
	priorRecords, err := priorRecordsToProto(contents.Plan)
	if err != nil {
		return err
	}
	if err := addMessage(add, priorRecordsEntryName, priorRecords); err != nil {
		return err
	}
	if err := writeConfigSnapshot(add, contents.Config); err != nil {
		return err
	}
	if contents.LockFile != nil {
		if err := add(lockFileEntryName, contents.LockFile); err != nil {
			return err
		}
	}
	return archive.Close()
}

func addMessage(add func(string, []byte) error, name string, message proto.Message) error {
	// Deterministic so that map fields (variables) encode in a stable order.
	encoded, err := proto.MarshalOptions{Deterministic: true}.Marshal(message)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", name, err)
	}
	return add(name, encoded)
}

func writeConfigSnapshot(add func(string, []byte) error, snapshot *ConfigSnapshot) error {
	if snapshot == nil {
		snapshot = &ConfigSnapshot{}
	}
	manifest, err := snapshot.manifest()
	if err != nil {
		return err
	}
	if err := add(configManifestName, manifest); err != nil {
		return err
	}
	// Sorted, so the same snapshot always makes the same archive.
	for _, key := range sortedKeys(snapshot.Modules) {
		module := snapshot.Modules[key]
		for _, fileName := range sortedKeys(module.Files) {
			if _, _, ok := splitModuleFileEntry(moduleFileEntry(key, fileName)); !ok {
				return fmt.Errorf("module %q: %q is not a plain file name", displayModuleKey(key), fileName)
			}
			if err := add(moduleFileEntry(key, fileName), module.Files[fileName]); err != nil {
				return err
			}
		}
	}
	return nil
}

func priorRecordsToProto(plan *plans.Plan) (*priorv1.PriorRecords, error) {
	raw := &priorv1.PriorRecords{Workspace: plan.Workspace, Absent: plan.AbsentRecords}
	for _, record := range plan.PriorRecords {
		data, err := plan.PriorRecordContent(record)
		if err != nil {
			return nil, err
		}
		out := &priorv1.PriorRecord{
			Name:       record.Name,
			Kind:       record.Kind,
			Uid:        record.Uid,
			Generation: record.Generation,
			Version:    record.Version,
			Data:       data,
		}
		if record.DependenciesPlanned {
			out.PlannedDependencies = &priorv1.Dependencies{Addresses: record.PlannedDependencies}
		}
		raw.Records = append(raw.Records, out)
	}
	return raw, nil
}

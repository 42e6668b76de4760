package planfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/terrane/terrane/internal/plans"
)

// FuzzReadPlanFile reads arbitrary bytes as a plan file: opening it and
// reading the plan, the configuration snapshot and the lock file end in
// their contents or in an error, never a panic. The seeds are a plan file
// Terrane writes (every change action, prior records, absent addresses, a
// configuration and a lock file) and the one Terraform 1.11 wrote in
// testdata.
func FuzzReadPlanFile(f *testing.F) {
	plan := &plans.Plan{Applyable: true, Complete: true, Workspace: "default",
		PriorRecords:  []plans.PriorRecord{{Name: "null_resource.r[1]", Kind: "ResourceInstance", Uid: "01J0000000000000000000000A", Generation: "01J0000000000000000000000B", Version: "7"}},
		AbsentRecords: []string{"null_resource.r[0]"}}
	for _, action := range []plans.Action{plans.Create, plans.Update, plans.DeleteThenCreate, plans.Delete} {
		plan.Changes.Resources = append(plan.Changes.Resources, encodeChange(f, testChange(f, "null_resource.r[0]", action, plans.ReasonNone)))
	}
	written := filepath.Join(f.TempDir(), "tfplan")
	snapshot := &ConfigSnapshot{Modules: map[string]*SnapshotModule{"": {Dir: ".", Files: map[string][]byte{"main.tf": []byte("resource \"null_resource\" \"r\" {}\n")}}}}
	if err := Create(written, Contents{Plan: plan, Config: snapshot, LockFile: []byte("# lock\n")}); err != nil {
		f.Fatalf("writing the seed plan: %v", err)
	}
	for _, path := range []string{written, filepath.Join("testdata", "terraform-1.11", "tfplan")} {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		path := filepath.Join(t.TempDir(), "tfplan")
		if err := os.WriteFile(path, src, 0o600); err != nil {
			t.Fatal(err)
		}
		reader, err := Open(path)
		if err != nil {
			return
		}
		defer reader.Close()
		_, _ = reader.ReadPlan()
		_, _ = reader.ReadConfigSnapshot()
		_, _, _ = reader.ReadLockFile()
	})
}

package command

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/plans/planfile"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/ui"
)

// rootModuleWarnings are the warnings of reading the root module in dir
// for its encryption configuration, with the files read. OpenTofu's plan
// reads it so before planning and shows these warnings then, and again
// with the plan's own diagnostics, which read the whole configuration once
// more; its apply does not. When reading finds errors, planning reports
// them.
func rootModuleWarnings(dir string) (diags.Diagnostics, map[string]*hcl.File) {
	parser := config.NewParser()
	_, hclDiags := parser.LoadModuleSelective(dir, config.SelectEncryption)
	if hclDiags.HasErrors() {
		return nil, nil
	}
	return diags.Diagnostics{}.Append(hclDiags), parser.Files()
}

// rootModuleSources reads the files of the root module in dir, for the
// snippets of diagnostics about them; nil when there are none.
func rootModuleSources(dir string) ui.Sources {
	parser := config.NewParser()
	_, _ = parser.LoadModuleSelective(dir, config.SelectEncryption)
	return ui.Sources(parser.Files())
}

// planSeal encrypts plan files with the plan target; nil when plans are
// stored plain.
func planSeal(enc *encryption.Encryption) planfile.Seal {
	if enc == nil || enc.Plan().WritesPlain() {
		return nil
	}
	return func(plan []byte) ([]byte, error) {
		return encryption.EncryptPlanFile(context.Background(), enc.Plan(), plan)
	}
}

// openPlanFile opens a saved plan, decrypting it with the plan target.
func openPlanFile(path string, enc *encryption.Encryption) (*planfile.Reader, error) {
	var target *encryption.Target
	if enc != nil {
		target = enc.Plan()
	}
	return planfile.OpenSealed(path, func(stored []byte) ([]byte, error) {
		plain, err := encryption.DecryptPlanFile(context.Background(), target, stored)
		if err != nil {
			return nil, explainPlanDecryption(err)
		}
		return plain, nil
	})
}

// savedPlanEncryption is the encryption a saved plan at path is read and
// applied with. An encrypted plan file needs its keys before it can be
// read, so its encryption takes the variables given now; a plain one is
// read first and its recorded values serve (a passphrase given to plan
// with -var need not be given again), and then the plan target must allow
// plain plan files.
func savedPlanEncryption(path, dir string, vars []inputvars.VarOption) (*encryption.Encryption, *planfile.Reader, diags.Diagnostics) {
	stored, err := os.ReadFile(path)
	if err != nil || encryption.IsEncryptedFile(stored) {
		enc, ds := run.LoadEncryption(dir, nil, vars, nil, os.Environ())
		if ds.HasErrors() {
			return nil, nil, ds
		}
		reader, err := openPlanFile(path, enc)
		return enc, reader, ds.Append(err)
	}
	reader, err := planfile.Open(path)
	if err != nil {
		return nil, nil, diags.Diagnostics{}.Append(err)
	}
	plan, err := reader.ReadPlan()
	if err != nil {
		reader.Close()
		return nil, nil, diags.Diagnostics{}.Append(err)
	}
	enc, ds := run.LoadEncryption(dir, nil, vars, plan, os.Environ())
	if ds.HasErrors() {
		reader.Close()
		return nil, nil, ds
	}
	if !enc.Plan().ReadsPlain() {
		reader.Close()
		return nil, nil, ds.Append(explainPlanDecryption(fmt.Errorf("%w, and the plan target's method chain has no unencrypted method to read it with (add one as a fallback, or make the plan again)", encryption.ErrNotEncryptedFile)))
	}
	return enc, reader, ds
}

func explainPlanDecryption(err error) error {
	if errors.Is(err, encryption.ErrNotEncryptedFile) {
		return fmt.Errorf("the plan target requires encrypted plan files, and this one %w", err)
	}
	return fmt.Errorf("decrypting it failed: %w", err)
}

// storeError is the diagnostic for a store that could not be opened or
// read: a record that could not be decrypted gets advice about keys (see
// encryption.Diagnostic), anything else otherwise's.
func storeError(summary string, err error, otherwise string) diags.Diagnostic {
	if d, ok := encryption.Diagnostic(err); ok {
		return d
	}
	if otherwise == "" {
		return diags.Errorf(summary, "%s.", diags.Capitalize(err.Error()))
	}
	return diags.Errorf(summary, "%s. %s", err, otherwise)
}

// staleRecordsNotice warns, after a run, that it read records the state
// target's primary method did not write: those it did not write again are
// still under the old keys (or plain), and stay so until written or
// rewritten by state reencrypt. OpenTofu rewrites its whole state file on
// every write; records are written one by one, so this is said instead.
func staleRecordsNotice(cipher *encryption.RecordCipher) diags.Diagnostics {
	if cipher == nil || cipher.ReadOld() == 0 {
		return nil
	}
	target := cipher.Target()
	how := "unencrypted"
	if !target.WritesPlain() {
		how = "with " + target.PrimaryMethod()
	}
	return diags.Diagnostics{diags.Warnf("State records use an older encryption",
		"%d record(s) were read with a fallback of the %s target, or were stored unencrypted. Records are stored %s only as they are written; run \"terrane state reencrypt\" to rewrite the rest now, and only then remove the fallback.",
		cipher.ReadOld(), target.Name(), how)}
}

// planFileFailure turns the bare errors among ds (reading or decrypting a
// plan file) into diagnostics that name the file and say what to give.
func planFileFailure(summary, path string, ds diags.Diagnostics) diags.Diagnostics {
	out := make(diags.Diagnostics, 0, len(ds))
	for _, d := range ds {
		if d.Severity == diags.Error && d.Detail == "" {
			d = diags.Errorf(summary, "The plan file %s cannot be read: %s. Give the path of a file written by \"terrane plan -out\".", path, d.Summary)
		}
		out = append(out, d)
	}
	return out
}

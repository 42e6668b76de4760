package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/planfile"
	"github.com/terrane/terrane/internal/states/errored"
	"github.com/terrane/terrane/internal/ui"
)

// loadEncryption builds the state and plan encryption of the configuration
// in dir: the root module's encryption block with TF_ENCRYPTION over it,
// its variables taken from vars, variable files and TF_VAR_ environment
// variables — or, for those a saved plan recorded, from saved. module is
// the root module when the caller loaded it already;
// nil loads it (a directory without configuration files has none, and
// only TF_ENCRYPTION can configure encryption there).
func loadEncryption(dir string, module *config.Module, vars []inputvars.VarOption, saved *plans.Plan) (*encryption.Encryption, diags.Diagnostics) {
	var ds diags.Diagnostics
	if module == nil {
		var loadDiags hcl.Diagnostics
		module, loadDiags = loadRootModuleForEncryption(dir)
		ds = ds.Append(loadDiags)
		if ds.HasErrors() {
			return nil, ds
		}
	}
	variable := staticVariables(dir, module, vars)
	if saved != nil {
		variable = savedPlanVariables(variable, saved)
	}
	enc, encDiags := encryption.New(encryption.Options{
		Module:   module,
		Variable: variable,
		Env:      os.Getenv(encryption.EnvVariable),
		BaseDir:  dir,
	})
	ds = ds.Append(encDiags)
	if ds.HasErrors() {
		return nil, ds
	}
	return enc, ds
}

// loadRootModuleForEncryption reads the root module of dir for commands
// that do not otherwise need the configuration (the state commands).
func loadRootModuleForEncryption(dir string) (*config.Module, hcl.Diagnostics) {
	var found bool
	for _, pattern := range []string{"*.tf", "*.tofu", "*.tf.json", "*.tofu.json"} {
		if matches, _ := filepath.Glob(filepath.Join(dir, pattern)); len(matches) > 0 {
			found = true
		}
	}
	if !found {
		return nil, nil
	}
	return config.NewParser().LoadModuleSelective(dir, config.SelectEncryption)
}

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

// staticVariables gives the encryption configuration the root variables it
// references: from -var and -var-file options, variable files and the
// environment, or their defaults.
func staticVariables(dir string, module *config.Module, vars []inputvars.VarOption) func(string) (cty.Value, hcl.Diagnostics) {
	var once sync.Once
	var given *inputvars.Values
	var givenDiags diags.Diagnostics
	return func(name string) (cty.Value, hcl.Diagnostics) {
		once.Do(func() {
			given, givenDiags = inputvars.CollectValues(dir, module.Variables, vars, os.Environ())
		})
		if givenDiags.HasErrors() {
			return cty.DynamicVal, toHCLDiagnostics(givenDiags)
		}
		val, ds := inputvars.ResolveOne(module.Variables[name], given.ByName[name])
		for i := range ds {
			if ds[i].Severity == diags.Error {
				ds[i].Detail = fmt.Sprintf("The encryption configuration uses var.%s, so it is needed to read or write state and plans. %s", name, ds[i].Detail)
			}
		}
		return val, toHCLDiagnostics(ds)
	}
}

// savedPlanVariables gives a saved plan's recorded values, those it was
// made with; ephemeral ones, never recorded, come from given.
func savedPlanVariables(given func(string) (cty.Value, hcl.Diagnostics), saved *plans.Plan) func(string) (cty.Value, hcl.Diagnostics) {
	return func(name string) (cty.Value, hcl.Diagnostics) {
		if _, recorded := saved.VariableValues[name]; !recorded {
			return given(name)
		}
		val, err := saved.VariableValue(name)
		if err != nil {
			return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid variable value in saved plan",
				Detail: fmt.Sprintf("The encryption configuration needs var.%s, whose value in the saved plan cannot be read: %s.", name, err)}}
		}
		return val, nil
	}
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
		enc, ds := loadEncryption(dir, nil, vars, nil)
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
	enc, ds := loadEncryption(dir, nil, vars, plan)
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

// stateCipher is the record cipher of the state encryption of the
// configuration in dir: every store a command opens passes records through
// it, so that no plain data is written where state is encrypted and
// encrypted records are read, or refused by name, never misread.
func stateCipher(dir string, module *config.Module, vars []inputvars.VarOption) (*encryption.RecordCipher, diags.Diagnostics) {
	enc, ds := loadEncryption(dir, module, vars, nil)
	if ds.HasErrors() {
		return nil, ds
	}
	return encryption.NewRecordCipher(enc.State()), ds
}

// storeError is the diagnostic for a store that could not be opened or
// read: a record that could not be decrypted gets advice about keys (see
// encryption.Diagnostic), anything else otherwise's.
func storeError(summary string, err error, otherwise string) diags.Diagnostic {
	if d, ok := encryption.Diagnostic(err); ok {
		return d
	}
	if otherwise == "" {
		return diags.Errorf(summary, "%s.", capitalizeFirst(err.Error()))
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

// decryptForeignState reads the state OpenTofu keeps for the configuration
// (a local or http backend's): encrypted with the state target, whose
// configuration OpenTofu wrote it with, or plain, as OpenTofu's own state
// push reads what it is given.
func decryptForeignState(enc *encryption.Encryption) func([]byte) ([]byte, error) {
	var target *encryption.Target
	if enc != nil {
		target = enc.State()
	}
	return func(stored []byte) ([]byte, error) {
		return encryption.DecryptStateFile(context.Background(), target, stored, true)
	}
}

// erroredSealing encrypts errored.tfstate with the state target, as
// OpenTofu writes it, and reads it encrypted or plain (a file written
// before the state was encrypted still holds results to take in).
func erroredSealing(enc *encryption.Encryption) errored.Sealing {
	if enc == nil {
		return errored.Sealing{}
	}
	target := enc.State()
	return errored.Sealing{
		Seal: func(state []byte) ([]byte, error) {
			return encryption.EncryptStateFile(context.Background(), target, state)
		},
		Open: func(stored []byte) ([]byte, error) {
			return encryption.DecryptStateFile(context.Background(), target, stored, true)
		},
	}
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

package run

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states/errored"
)

// LoadEncryption builds the state and plan encryption of the
// configuration in dir: the root module's encryption block with
// TF_ENCRYPTION (from environ) over it, its variables taken from vars,
// variable files and TF_VAR_ environment variables — or, for those a saved
// plan recorded, from saved. module is the root module when the caller
// loaded it already; nil loads it (a directory without configuration files
// has none, and only TF_ENCRYPTION can configure encryption there).
func LoadEncryption(dir string, module *config.Module, vars []inputvars.VarOption, saved *plans.Plan, environ []string) (*encryption.Encryption, diags.Diagnostics) {
	var ds diags.Diagnostics
	if module == nil {
		var loadDiags hcl.Diagnostics
		module, loadDiags = LoadRootModuleForEncryption(dir)
		ds = ds.Append(loadDiags)
		if ds.HasErrors() {
			return nil, ds
		}
	}
	variable := staticVariables(dir, module, vars, environ)
	if saved != nil {
		variable = savedPlanVariables(variable, saved)
	}
	enc, encDiags := encryption.New(encryption.Options{
		Module:   module,
		Variable: variable,
		Env:      getenv(environ, encryption.EnvVariable),
		BaseDir:  dir,
	})
	ds = ds.Append(encDiags)
	if ds.HasErrors() {
		return nil, ds
	}
	return enc, ds
}

// StateCipher is the record cipher of the state encryption of the
// configuration in dir: every store a command opens passes records through
// it, so that no plain data is written where state is encrypted and
// encrypted records are read, or refused by name, never misread.
func StateCipher(dir string, module *config.Module, vars []inputvars.VarOption, environ []string) (*encryption.RecordCipher, diags.Diagnostics) {
	enc, ds := LoadEncryption(dir, module, vars, nil, environ)
	if ds.HasErrors() {
		return nil, ds
	}
	return encryption.NewRecordCipher(enc.State()), ds
}

// LoadRootModuleForEncryption reads the root module of dir for commands
// that do not otherwise need the configuration (the state commands).
func LoadRootModuleForEncryption(dir string) (*config.Module, hcl.Diagnostics) {
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

// staticVariables gives the encryption configuration the root variables it
// references: from -var and -var-file options, variable files and the
// environment, or their defaults.
func staticVariables(dir string, module *config.Module, vars []inputvars.VarOption, environ []string) func(string) (cty.Value, hcl.Diagnostics) {
	var once sync.Once
	var given *inputvars.Values
	var givenDiags diags.Diagnostics
	return func(name string) (cty.Value, hcl.Diagnostics) {
		once.Do(func() {
			given, givenDiags = inputvars.CollectValues(dir, module.Variables, vars, environ)
		})
		if givenDiags.HasErrors() {
			return cty.DynamicVal, givenDiags.ToHCL()
		}
		val, ds := inputvars.ResolveOne(module.Variables[name], given.ByName[name])
		for i := range ds {
			if ds[i].Severity == diags.Error {
				ds[i].Detail = fmt.Sprintf("The encryption configuration uses var.%s, so it is needed to read or write state and plans. %s", name, ds[i].Detail)
			}
		}
		return val, ds.ToHCL()
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

// DecryptForeignState reads the state OpenTofu keeps for the
// configuration (a local or http backend's): encrypted with the state
// target, whose configuration OpenTofu wrote it with, or plain, as
// OpenTofu's own state push reads what it is given.
func DecryptForeignState(enc *encryption.Encryption) func([]byte) ([]byte, error) {
	var target *encryption.Target
	if enc != nil {
		target = enc.State()
	}
	return func(stored []byte) ([]byte, error) {
		return encryption.DecryptStateFile(context.Background(), target, stored, true)
	}
}

// ErroredSealing encrypts errored.tfstate with the state target, as
// OpenTofu writes it, and reads it encrypted or plain (a file written
// before the state was encrypted still holds results to take in).
func ErroredSealing(enc *encryption.Encryption) errored.Sealing {
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

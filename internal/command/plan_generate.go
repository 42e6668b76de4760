package command

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/genconfig"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
)

// openGeneratingConfig is openOperation for plan -generate-config-out:
// the objects of import blocks without resource blocks are imported and
// read, their blocks written to the new file opts.GenerateConfigOut, and
// the operation opened again over the configuration that now includes
// them. The file stays even when planning fails later, as in Terraform,
// so the user can fix it.
func openGeneratingConfig(out *views.Operation, opts arguments.Operation) (*operation, diags.Diagnostics) {
	path := opts.GenerateConfigOut
	if _, err := os.Stat(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil, diags.Diagnostics{diags.Errorf("Target generated file already exists",
			"Terrane can only write generated config into a new file. Either choose a different target location or move all existing configuration out of the target file, delete it and try again.")}
	}
	op, ds := openOperation(out, opts, nil, nil)
	if ds.HasErrors() {
		return op, ds
	}
	imported, ids := op.Engine.ImportForConfigGeneration(context.Background())
	ds = ds.Append(ids)
	if len(imported) == 0 {
		return op, ds
	}
	// Written even when some imports failed, as Terraform does.
	if wds := writeGeneratedConfig(path, imported); wds.HasErrors() || ids.HasErrors() {
		return op, ds.Append(wds)
	}
	op.Close()
	op, ods := openOperation(out, opts, nil, nil)
	if op != nil {
		op.generatedConfig = generatedBlocks(imported)
	}
	return op, ds.Append(ods)
}

func generatedResources(imported []engine.GeneratedImport) []genconfig.Resource {
	resources := make([]genconfig.Resource, 0, len(imported))
	for _, obj := range imported {
		res := obj.Addr.Resource.Resource
		resources = append(resources, genconfig.Resource{Type: res.Type, Name: res.Name, ImportID: obj.ID, Schema: obj.Schema, Value: obj.Value})
	}
	return resources
}

func writeGeneratedConfig(path string, imported []engine.GeneratedImport) diags.Diagnostics {
	if err := os.WriteFile(path, genconfig.File(generatedResources(imported)), 0o644); err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot write generated configuration",
			"Writing %s failed: %s. Check that its directory exists and is writable.", path, err)}
	}
	return nil
}

// generatedBlocks maps each imported address to its generated block, for
// the plan to carry as the change's generated configuration.
func generatedBlocks(imported []engine.GeneratedImport) map[string]string {
	blocks := map[string]string{}
	for i, res := range generatedResources(imported) {
		blocks[imported[i].Addr.String()] = string(genconfig.Block(res))
	}
	return blocks
}

// markGeneratedConfig records in plan which imports' configuration was
// generated, so the plan shows "(config will be generated)" for them.
func (op *operation) markGeneratedConfig(plan *plans.Plan) {
	if plan == nil || len(op.generatedConfig) == 0 {
		return
	}
	for _, change := range plan.Changes.Resources {
		if block, ok := op.generatedConfig[change.Addr.String()]; ok && change.Importing != nil {
			change.GeneratedConfig = block
		}
	}
}

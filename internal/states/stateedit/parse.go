package stateedit

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/terrane/terrane/internal/addrs"
)

// ParseTarget reads an address given to a state command as OpenTofu's
// addrs.ParseTargetStr reads it: module steps, then an optional resource
// with an optional key. The diagnostics are OpenTofu's, with source ranges
// in a file with no name, which is how they print the argument.
func ParseTarget(text string) (Target, hcl.Diagnostics) {
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(text), "", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return Target{}, diags
	}
	module, remain, moreDiags := parseModulePrefix(traversal)
	diags = append(diags, moreDiags...)
	if diags.HasErrors() {
		return Target{}, diags
	}
	if len(remain) == 0 {
		return Target{Kind: TargetModule, Module: module}, diags
	}
	inst, moreDiags := parseInstanceUnder(remain)
	diags = append(diags, moreDiags...)
	if diags.HasErrors() {
		return Target{}, diags
	}
	target := Target{Kind: TargetInstance, Module: module, Instance: inst}
	if inst.Key == addrs.NoKey {
		target.Kind = TargetResource
	}
	return target, diags
}

func invalid(summary, detail string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}

func stepName(step hcl.Traverser) (string, bool) {
	switch step := step.(type) {
	case hcl.TraverseRoot:
		return step.Name, true
	case hcl.TraverseAttr:
		return step.Name, true
	}
	return "", false
}

// parseModulePrefix consumes the module.NAME[KEY] steps at the start of a
// traversal.
func parseModulePrefix(traversal hcl.Traversal) (addrs.ModuleInstance, hcl.Traversal, hcl.Diagnostics) {
	var module addrs.ModuleInstance
	var diags hcl.Diagnostics
	remain := traversal
	for len(remain) > 0 {
		name, ok := stepName(remain[0])
		if !ok {
			diags = append(diags, invalid("Invalid address operator", "Module address prefix must be followed by dot and then a name.", remain[0].SourceRange()))
			break
		}
		if name != "module" {
			break
		}
		if len(remain) < 2 {
			diags = append(diags, invalid("Invalid address operator", "Prefix \"module.\" must be followed by a module name.", remain[0].SourceRange()))
			break
		}
		call, ok := remain[1].(hcl.TraverseAttr)
		if !ok {
			diags = append(diags, invalid("Invalid address operator", "Prefix \"module.\" must be followed by a module name.", remain[1].SourceRange()))
			break
		}
		remain = remain[2:]
		step := addrs.ModuleInstanceStep{Name: call.Name}
		if len(remain) > 0 {
			if index, ok := remain[0].(hcl.TraverseIndex); ok {
				remain = remain[1:]
				key, d := moduleKey(index)
				diags = append(diags, d...)
				step.Key = key
			}
		}
		module = append(module, step)
	}
	return module, remain, diags
}

func moduleKey(index hcl.TraverseIndex) (addrs.InstanceKey, hcl.Diagnostics) {
	switch index.Key.Type() {
	case cty.String:
		return addrs.StringKey(index.Key.AsString()), nil
	case cty.Number:
		var n int
		if err := gocty.FromCtyValue(index.Key, &n); err != nil {
			return addrs.NoKey, hcl.Diagnostics{invalid("Invalid address operator", fmt.Sprintf("Invalid module index: %s.", err), index.SourceRange())}
		}
		return addrs.IntKey(n), nil
	}
	return addrs.NoKey, hcl.Diagnostics{invalid("Invalid address operator", "Invalid module key: must be either a string or an integer.", index.SourceRange())}
}

// parseInstanceUnder reads [data.|ephemeral.]TYPE.NAME[KEY].
func parseInstanceUnder(remain hcl.Traversal) (addrs.ResourceInstance, hcl.Diagnostics) {
	mode := addrs.ManagedResourceMode
	if name, _ := stepName(remain[0]); name == "data" {
		mode, remain = addrs.DataResourceMode, remain[1:]
	} else if name == "ephemeral" {
		mode, remain = addrs.EphemeralResourceMode, remain[1:]
	}
	if len(remain) < 2 {
		return addrs.ResourceInstance{}, hcl.Diagnostics{invalid("Invalid address", "Resource specification must include a resource type and name.", remain.SourceRange())}
	}
	typeName, ok := stepName(remain[0])
	if !ok {
		detail := map[addrs.ResourceMode]string{
			addrs.ManagedResourceMode:   "A resource type name is required.",
			addrs.DataResourceMode:      "A data source name is required.",
			addrs.EphemeralResourceMode: "An ephemeral resource name is required.",
		}[mode]
		return addrs.ResourceInstance{}, hcl.Diagnostics{invalid("Invalid address", detail, remain[0].SourceRange())}
	}
	nameStep, ok := remain[1].(hcl.TraverseAttr)
	if !ok {
		return addrs.ResourceInstance{}, hcl.Diagnostics{invalid("Invalid address", "A resource name is required.", remain[1].SourceRange())}
	}
	inst := addrs.ResourceInstance{Resource: addrs.Resource{Mode: mode, Type: typeName, Name: nameStep.Name}}
	remain = remain[2:]
	switch len(remain) {
	case 0:
		return inst, nil
	case 1:
		index, ok := remain[0].(hcl.TraverseIndex)
		if !ok {
			return addrs.ResourceInstance{}, hcl.Diagnostics{invalid("Invalid address", "Resource instance key must be given in square brackets.", remain[0].SourceRange())}
		}
		key, err := resourceKey(index.Key)
		if err != nil {
			return addrs.ResourceInstance{}, hcl.Diagnostics{invalid("Invalid address", fmt.Sprintf("Invalid resource instance key: %s.", err), remain[0].SourceRange())}
		}
		inst.Key = key
		return inst, nil
	}
	return addrs.ResourceInstance{}, hcl.Diagnostics{invalid("Invalid address", "Unexpected extra operators after address.", remain[1].SourceRange())}
}

// resourceKey reads an instance key with OpenTofu's messages.
func resourceKey(v cty.Value) (addrs.InstanceKey, error) {
	switch v.Type() {
	case cty.String:
		return addrs.StringKey(v.AsString()), nil
	case cty.Number:
		var n int
		err := gocty.FromCtyValue(v, &n)
		return addrs.IntKey(n), err
	}
	return addrs.NoKey, fmt.Errorf("either a string or an integer is required")
}

package arguments

import (
	"bufio"
	"bytes"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
)

// Target is an address given to -target or -exclude. Addr is an
// addrs.ModuleInstance (every resource in a module instance and below), an
// addrs.AbsResource (every instance of a resource) or an
// addrs.AbsResourceInstance (one instance).
type Target struct {
	Addr interface {
		String() string
		UniqueKey() addrs.UniqueKey
	}
}

func (t Target) String() string { return t.Addr.String() }

// ParseTarget reads the value of a -target or -exclude option; option is
// "target" or "exclude". Errors are OpenTofu's.
func ParseTarget(option, text string) (Target, diags.Diagnostics) {
	invalid := func(detail string) (Target, diags.Diagnostics) {
		return Target{}, diags.Diagnostics{diags.Errorf(fmt.Sprintf("Invalid %s %q", option, text), "%s", detail)}
	}
	traversal, parseDiags := hclsyntax.ParseTraversalAbs([]byte(text), "", hcl.InitialPos)
	if parseDiags.HasErrors() {
		return invalid(parseDiags[0].Detail)
	}
	target, targetDiags := parseTargetTraversal(traversal)
	if targetDiags.HasErrors() {
		return invalid(targetDiags[0].Detail)
	}
	return target, nil
}

// parseTargetFile reads the addresses of a -target-file or -exclude-file,
// one a line; a line whose first non-blank character is # is a comment. As
// in OpenTofu, every other line (a blank one too) must hold an address, and
// a problem is reported at its place in the file.
func parseTargetFile(path string) ([]Target, diags.Diagnostics) {
	var ds diags.Diagnostics
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, ds.Append(err)
	}
	var targets []Target
	sc := hcl.NewRangeScanner(src, path, bufio.ScanLines)
	for sc.Scan() {
		line, rng := sc.Bytes(), sc.Range()
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			continue
		}
		traversal, syntaxDiags := hclsyntax.ParseTraversalAbs(line, rng.Filename, rng.Start)
		if ds = ds.Append(syntaxDiags); syntaxDiags.HasErrors() {
			continue
		}
		target, targetDiags := parseTargetTraversal(traversal)
		if ds = ds.Append(targetDiags); !targetDiags.HasErrors() {
			targets = append(targets, target)
		}
	}
	return targets, ds
}

// parseTargetTraversal reads an address as OpenTofu reads targets: a module
// instance path, then optionally a resource with an optional instance key.
func parseTargetTraversal(traversal hcl.Traversal) (Target, hcl.Diagnostics) {
	module, remain, ds := parseModuleInstancePrefix(traversal)
	if ds.HasErrors() {
		return Target{}, ds
	}
	if len(remain) == 0 {
		return Target{Addr: module}, nil
	}
	invalid := func(detail string, rng hcl.Range) (Target, hcl.Diagnostics) {
		return Target{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid address", Detail: detail, Subject: rng.Ptr()}}
	}
	mode := addrs.ManagedResourceMode
	switch traversalName(remain[0]) {
	case "data":
		mode, remain = addrs.DataResourceMode, remain[1:]
	case "ephemeral":
		mode, remain = addrs.EphemeralResourceMode, remain[1:]
	}
	if len(remain) < 2 {
		return invalid("Resource specification must include a resource type and name.", remain.SourceRange())
	}
	typeName := traversalName(remain[0])
	if typeName == "" {
		detail := map[addrs.ResourceMode]string{addrs.ManagedResourceMode: "A resource type name is required.",
			addrs.DataResourceMode: "A data source name is required.", addrs.EphemeralResourceMode: "An ephemeral resource name is required."}[mode]
		return invalid(detail, remain[0].SourceRange())
	}
	attr, ok := remain[1].(hcl.TraverseAttr)
	if !ok {
		return invalid("A resource name is required.", remain[1].SourceRange())
	}
	res := addrs.AbsResource{Module: module, Resource: addrs.Resource{Mode: mode, Type: typeName, Name: attr.Name}}
	switch remain = remain[2:]; len(remain) {
	case 0:
		return Target{Addr: res}, nil
	case 1:
		index, ok := remain[0].(hcl.TraverseIndex)
		if !ok {
			return invalid("Resource instance key must be given in square brackets.", remain[0].SourceRange())
		}
		key, err := targetInstanceKey(index.Key)
		if err != nil {
			return invalid(fmt.Sprintf("Invalid resource instance key: %s.", err), remain[0].SourceRange())
		}
		return Target{Addr: res.Instance(key)}, nil
	default:
		return invalid("Unexpected extra operators after address.", remain[1].SourceRange())
	}
}

// parseModuleInstancePrefix reads the module.NAME[KEY] steps at the start
// of traversal, returning the rest.
func parseModuleInstancePrefix(traversal hcl.Traversal) (addrs.ModuleInstance, hcl.Traversal, hcl.Diagnostics) {
	var module addrs.ModuleInstance
	remain := traversal
	operator := func(detail string, rng hcl.Range) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid address operator", Detail: detail, Subject: rng.Ptr()}}
	}
	for len(remain) > 0 {
		switch remain[0].(type) {
		case hcl.TraverseRoot, hcl.TraverseAttr:
		default:
			return module, remain, operator("Module address prefix must be followed by dot and then a name.", remain[0].SourceRange())
		}
		if traversalName(remain[0]) != "module" {
			break
		}
		if len(remain) == 1 {
			return module, remain, operator(`Prefix "module." must be followed by a module name.`, remain[0].SourceRange())
		}
		name, ok := remain[1].(hcl.TraverseAttr)
		if !ok {
			return module, remain, operator(`Prefix "module." must be followed by a module name.`, remain[1].SourceRange())
		}
		step := addrs.ModuleInstanceStep{Name: name.Name}
		remain = remain[2:]
		if len(remain) > 0 {
			if index, ok := remain[0].(hcl.TraverseIndex); ok {
				remain = remain[1:]
				switch index.Key.Type() {
				case cty.String:
					step.Key = addrs.StringKey(index.Key.AsString())
				case cty.Number:
					var n int
					if err := gocty.FromCtyValue(index.Key, &n); err != nil {
						return module, remain, operator(fmt.Sprintf("Invalid module index: %s.", err), index.SourceRange())
					}
					step.Key = addrs.IntKey(n)
				}
			}
		}
		module = append(module, step)
	}
	return module, remain, nil
}

func traversalName(t hcl.Traverser) string {
	switch t := t.(type) {
	case hcl.TraverseRoot:
		return t.Name
	case hcl.TraverseAttr:
		return t.Name
	}
	return ""
}

// targetInstanceKey is OpenTofu's addrs.ParseInstanceKey.
func targetInstanceKey(key cty.Value) (addrs.InstanceKey, error) {
	switch key.Type() {
	case cty.String:
		return addrs.StringKey(key.AsString()), nil
	case cty.Number:
		var n int
		err := gocty.FromCtyValue(key, &n)
		return addrs.IntKey(n), err
	}
	return addrs.NoKey, fmt.Errorf("either a string or an integer is required")
}

// ParseReplace reads the value of a -replace option, which must name one
// resource instance of a managed resource. Errors are OpenTofu's.
func ParseReplace(text string) (addrs.AbsResourceInstance, diags.Diagnostics) {
	invalid := func(detail string) (addrs.AbsResourceInstance, diags.Diagnostics) {
		return addrs.AbsResourceInstance{}, diags.Diagnostics{diags.Errorf(fmt.Sprintf("Invalid force-replace address %q", text), "%s", detail)}
	}
	traversal, parseDiags := hclsyntax.ParseTraversalAbs([]byte(text), "", hcl.InitialPos)
	if parseDiags.HasErrors() {
		return invalid(parseDiags[0].Detail)
	}
	target, targetDiags := parseTargetTraversal(traversal)
	if targetDiags.HasErrors() {
		return invalid(targetDiags[0].Detail)
	}
	var addr addrs.AbsResourceInstance
	switch t := target.Addr.(type) {
	case addrs.AbsResource:
		addr = t.Instance(addrs.NoKey)
	case addrs.AbsResourceInstance:
		addr = t
	default:
		return invalid("A resource instance address is required here. The module path must be followed by a resource instance specification.")
	}
	if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return invalid("Only managed resources can be used with the -replace=... option.")
	}
	return addr, nil
}

package addrs

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Module is the static path of a module in the configuration tree, a list of
// module call names from the root: module.a.module.b is {"a", "b"}. The root
// module is the empty path.
type Module []string

// RootModule is the path of the root module.
var RootModule Module

// IsRoot reports whether m is the root module.
func (m Module) IsRoot() bool { return len(m) == 0 }

// Child returns the path of the module called name from m.
func (m Module) Child(name string) Module {
	out := make(Module, len(m), len(m)+1)
	copy(out, m)
	return append(out, name)
}

// Parent returns the path of the module that calls m. The root's parent is
// the root.
func (m Module) Parent() Module {
	if len(m) == 0 {
		return m
	}
	return m[:len(m)-1]
}

// Equal reports whether m and other are the same path.
func (m Module) Equal(other Module) bool {
	if len(m) != len(other) {
		return false
	}
	for i := range m {
		if m[i] != other[i] {
			return false
		}
	}
	return true
}

func (m Module) String() string {
	var buf strings.Builder
	for i, name := range m {
		if i > 0 {
			buf.WriteByte('.')
		}
		buf.WriteString("module.")
		buf.WriteString(name)
	}
	return buf.String()
}

type moduleKey string

func (moduleKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (m Module) UniqueKey() UniqueKey { return moduleKey(m.String()) }

// ModuleInstanceStep is one step of a module instance path: a module call
// name and, when the call uses count or for_each, the instance key.
type ModuleInstanceStep struct {
	Name string
	Key  InstanceKey
}

func (s ModuleInstanceStep) String() string {
	return "module." + s.Name + instanceKeyString(s.Key)
}

// ModuleInstance is the path of one instance of a module, like
// module.a["x"].module.b[0]. The root module instance is the empty path.
type ModuleInstance []ModuleInstanceStep

// RootModuleInstance is the path of the root module's only instance.
var RootModuleInstance ModuleInstance

// IsRoot reports whether m is the root module instance.
func (m ModuleInstance) IsRoot() bool { return len(m) == 0 }

// Child returns the path of instance key of the module called name from m.
func (m ModuleInstance) Child(name string, key InstanceKey) ModuleInstance {
	out := make(ModuleInstance, len(m), len(m)+1)
	copy(out, m)
	return append(out, ModuleInstanceStep{Name: name, Key: key})
}

// Parent returns the path of the module instance that calls m.
func (m ModuleInstance) Parent() ModuleInstance {
	if len(m) == 0 {
		return m
	}
	return m[:len(m)-1]
}

// Module returns the static module path of m, without instance keys.
func (m ModuleInstance) Module() Module {
	if len(m) == 0 {
		return RootModule
	}
	out := make(Module, len(m))
	for i, step := range m {
		out[i] = step.Name
	}
	return out
}

// Equal reports whether m and other are the same module instance.
func (m ModuleInstance) Equal(other ModuleInstance) bool {
	if len(m) != len(other) {
		return false
	}
	for i := range m {
		if m[i] != other[i] {
			return false
		}
	}
	return true
}

func (m ModuleInstance) String() string {
	var buf strings.Builder
	for i, step := range m {
		if i > 0 {
			buf.WriteByte('.')
		}
		buf.WriteString(step.String())
	}
	return buf.String()
}

type moduleInstanceKey string

func (moduleInstanceKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (m ModuleInstance) UniqueKey() UniqueKey { return moduleInstanceKey(m.String()) }

// ParseModuleInstanceStr parses a module instance address such as
// module.a["x"].module.b[0]. The empty string is the root module.
func ParseModuleInstanceStr(str string) (ModuleInstance, hcl.Diagnostics) {
	if str == "" {
		return RootModuleInstance, nil
	}
	traversal, diags := parseTraversalStr(str)
	if diags.HasErrors() {
		return nil, diags
	}
	return ParseModuleInstance(traversal)
}

// ParseModuleStr parses a static module path such as module.a.module.b.
func ParseModuleStr(str string) (Module, hcl.Diagnostics) {
	mi, diags := ParseModuleInstanceStr(str)
	if diags.HasErrors() {
		return nil, diags
	}
	for _, step := range mi {
		if step.Key != NoKey {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid module address",
				Detail:   "A module address names a module call, not one of its instances: remove the index " + step.Key.String() + ".",
			}}
		}
	}
	return mi.Module(), nil
}

// parseModuleInstancePrefix consumes leading module.NAME[KEY] steps of a
// traversal and returns the module instance and what is left.
func parseModuleInstancePrefix(traversal hcl.Traversal) (ModuleInstance, hcl.Traversal, hcl.Diagnostics) {
	var mi ModuleInstance
	var diags hcl.Diagnostics
	remain := traversal
	for len(remain) > 0 {
		if traverserName(remain[0]) != "module" {
			break
		}
		if len(remain) < 2 {
			diags = append(diags, errorDiag("Invalid address",
				"The prefix \"module.\" must be followed by a module name.", remain[0].SourceRange()))
			return mi, nil, diags
		}
		nameStep, ok := remain[1].(hcl.TraverseAttr)
		if !ok {
			diags = append(diags, errorDiag("Invalid address",
				"The prefix \"module.\" must be followed by a module name.", remain[1].SourceRange()))
			return mi, nil, diags
		}
		remain = remain[2:]
		step := ModuleInstanceStep{Name: nameStep.Name}
		if len(remain) > 0 {
			key, keyDiags := instanceKeyFromTraverser(remain[0])
			diags = append(diags, keyDiags...)
			if _, isIndex := remain[0].(hcl.TraverseIndex); isIndex {
				step.Key = key
				remain = remain[1:]
			}
		}
		mi = append(mi, step)
	}
	return mi, remain, diags
}

// parseTraversalStr parses an absolute traversal written as a string.
func parseTraversalStr(str string) (hcl.Traversal, hcl.Diagnostics) {
	return hclsyntax.ParseTraversalAbs([]byte(str), "", hcl.Pos{Line: 1, Column: 1, Byte: 0})
}

// traverserName returns the name of a root or attribute step, or "".
func traverserName(step hcl.Traverser) string {
	switch step := step.(type) {
	case hcl.TraverseRoot:
		return step.Name
	case hcl.TraverseAttr:
		return step.Name
	}
	return ""
}

func errorDiag(summary, detail string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}

// ParseModuleInstance reads a module instance address from a traversal.
func ParseModuleInstance(traversal hcl.Traversal) (ModuleInstance, hcl.Diagnostics) {
	mi, rest, diags := parseModuleInstancePrefix(traversal)
	if !diags.HasErrors() && len(rest) > 0 {
		diags = append(diags, errorDiag("Invalid module instance address",
			"A module instance address is a sequence of module.NAME steps, each optionally followed by an index.",
			rest.SourceRange()))
	}
	return mi, diags
}

package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// Referenceable is anything an expression can refer to: var.x, local.x,
// module.m.out, aws_instance.web[0], count.index, each.key, path.module,
// terraform.workspace, self and the rest.
type Referenceable interface {
	referenceableSigil()
	String() string
}

func (InputVariable) referenceableSigil()            {}
func (LocalValue) referenceableSigil()               {}
func (ModuleCall) referenceableSigil()               {}
func (ModuleCallInstance) referenceableSigil()       {}
func (ModuleCallInstanceOutput) referenceableSigil() {}
func (Resource) referenceableSigil()                 {}
func (ResourceInstance) referenceableSigil()         {}
func (CountAttr) referenceableSigil()                {}
func (ForEachAttr) referenceableSigil()              {}
func (PathAttr) referenceableSigil()                 {}
func (TerraformAttr) referenceableSigil()            {}
func (selfObject) referenceableSigil()               {}

// CountAttr is an attribute of count, such as count.index.
type CountAttr struct{ Name string }

func (a CountAttr) String() string { return "count." + a.Name }

// ForEachAttr is an attribute of each, such as each.key or each.value.
type ForEachAttr struct{ Name string }

func (a ForEachAttr) String() string { return "each." + a.Name }

// PathAttr is an attribute of path: path.module, path.root or path.cwd.
type PathAttr struct{ Name string }

func (a PathAttr) String() string { return "path." + a.Name }

// TerraformAttr is an attribute of the terraform object, or of OpenTofu's
// tofu object, which has the same attributes: terraform.workspace.
type TerraformAttr struct {
	Name string
	// Tofu is set when the reference was written as tofu.NAME.
	Tofu bool
}

func (a TerraformAttr) String() string {
	if a.Tofu {
		return "tofu." + a.Name
	}
	return "terraform." + a.Name
}

type selfObject struct{}

func (selfObject) String() string { return "self" }

// Self is the self object inside provisioner, connection and condition
// blocks of a resource.
var Self Referenceable = selfObject{}

// Reference is one reference found in an expression: what it refers to,
// where it is written, and the attribute and index steps that follow.
type Reference struct {
	Subject     Referenceable
	SourceRange hcl.Range
	Remaining   hcl.Traversal
}

// DisplayString prints the reference as the user wrote it, including the
// steps after the subject that are plain attribute names or literal indexes.
func (r *Reference) DisplayString() string {
	str := r.Subject.String()
	for _, step := range r.Remaining {
		switch step := step.(type) {
		case hcl.TraverseAttr:
			str += "." + step.Name
		case hcl.TraverseIndex:
			key, err := ParseInstanceKey(step.Key)
			if err != nil {
				return str + "[...]"
			}
			str += key.String()
		default:
			return str
		}
	}
	return str
}

// ParseRef reads the reference at the start of a traversal taken from an
// expression (hcl.Expression.Variables), such as var.x or
// module.net["a"].subnet_id.
func ParseRef(traversal hcl.Traversal) (*Reference, hcl.Diagnostics) {
	root := traversal.RootName()
	rootRange := traversal[0].SourceRange()
	single := func(build func(name string) Referenceable) (*Reference, hcl.Diagnostics) {
		name, rng, remain, diags := parseSingleAttrRef(traversal)
		if diags.HasErrors() {
			return nil, diags
		}
		return &Reference{Subject: build(name), SourceRange: rng, Remaining: remain}, nil
	}
	switch root {
	case "count":
		return single(func(name string) Referenceable { return CountAttr{Name: name} })
	case "each":
		return single(func(name string) Referenceable { return ForEachAttr{Name: name} })
	case "local":
		return single(func(name string) Referenceable { return LocalValue{Name: name} })
	case "path":
		return single(func(name string) Referenceable { return PathAttr{Name: name} })
	case "terraform":
		return single(func(name string) Referenceable { return TerraformAttr{Name: name} })
	case "tofu":
		return single(func(name string) Referenceable { return TerraformAttr{Name: name, Tofu: true} })
	case "var":
		return single(func(name string) Referenceable { return InputVariable{Name: name} })
	case "self":
		return &Reference{Subject: Self, SourceRange: rootRange, Remaining: traversal[1:]}, nil
	case "module":
		return parseModuleRef(traversal)
	case "data", "resource", "ephemeral":
		if len(traversal) < 3 {
			what := map[string]string{
				"data":      "the data source type and the resource name",
				"resource":  "the resource type and the resource name",
				"ephemeral": "the ephemeral resource type and the resource name",
			}[root]
			return nil, hcl.Diagnostics{errorDiag("Invalid reference",
				fmt.Sprintf("The %q object must be followed by two attribute names: %s.", root, what), traversal.SourceRange())}
		}
		mode := map[string]ResourceMode{"data": DataResourceMode, "resource": ManagedResourceMode, "ephemeral": EphemeralResourceMode}[root]
		return parseResourceRef(mode, rootRange, traversal[1:])
	case "template", "lazy", "arg":
		return nil, hcl.Diagnostics{errorDiag("Reserved symbol name",
			fmt.Sprintf("The symbol name %q is reserved for use in a future version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.", root),
			rootRange)}
	default:
		return parseResourceRef(ManagedResourceMode, rootRange, traversal)
	}
}

// ParseRefStr parses a reference written as a string, such as "var.x".
func ParseRefStr(str string) (*Reference, hcl.Diagnostics) {
	traversal, diags := parseTraversalStr(str)
	if diags.HasErrors() {
		return nil, diags
	}
	return ParseRef(traversal)
}

func parseModuleRef(traversal hcl.Traversal) (*Reference, hcl.Diagnostics) {
	callName, callRange, remain, diags := parseSingleAttrRef(traversal)
	if diags.HasErrors() {
		return nil, diags
	}
	call := ModuleCall{Name: callName}
	if len(remain) == 0 {
		return &Reference{Subject: call, SourceRange: callRange}, nil
	}
	instance := call.Instance(NoKey)
	rng := callRange
	if index, ok := remain[0].(hcl.TraverseIndex); ok {
		key, err := ParseInstanceKey(index.Key)
		if err != nil {
			return nil, hcl.Diagnostics{errorDiag("Invalid index key",
				fmt.Sprintf("Invalid index for module instance: %s.", err), index.SrcRange)}
		}
		instance.Key = key
		remain = remain[1:]
		rng = hcl.RangeBetween(callRange, index.SrcRange)
		if len(remain) == 0 {
			return &Reference{Subject: instance, SourceRange: rng}, nil
		}
	}
	attr, ok := remain[0].(hcl.TraverseAttr)
	if !ok {
		return nil, hcl.Diagnostics{errorDiag("Invalid reference",
			"Module instance objects do not support this operation.", remain[0].SourceRange())}
	}
	return &Reference{
		Subject:     ModuleCallInstanceOutput{Call: instance, Name: attr.Name},
		SourceRange: hcl.RangeBetween(rng, attr.SrcRange),
		Remaining:   remain[1:],
	}, nil
}

func parseResourceRef(mode ResourceMode, startRange hcl.Range, traversal hcl.Traversal) (*Reference, hcl.Diagnostics) {
	what := mode.TypeKind()
	if len(traversal) < 2 {
		return nil, hcl.Diagnostics{errorDiag("Invalid reference",
			fmt.Sprintf("A reference to a %s must be followed by at least one attribute access, specifying the resource name.", what),
			traversal.SourceRange())}
	}
	typeName := traverserName(traversal[0])
	if typeName == "" {
		return nil, hcl.Diagnostics{errorDiag("Invalid reference",
			fmt.Sprintf("The %q object does not support this operation.", mode.BlockType()), traversal[0].SourceRange())}
	}
	nameStep, ok := traversal[1].(hcl.TraverseAttr)
	if !ok {
		return nil, hcl.Diagnostics{errorDiag("Invalid reference",
			fmt.Sprintf("A reference to a %s must be followed by at least one attribute access, specifying the resource name.", what),
			traversal[1].SourceRange())}
	}
	resource := Resource{Mode: mode, Type: typeName, Name: nameStep.Name}
	rng := hcl.RangeBetween(startRange, nameStep.SrcRange)
	remain := traversal[2:]
	if len(remain) == 0 {
		return &Reference{Subject: resource, SourceRange: rng}, nil
	}
	instance := resource.Instance(NoKey)
	if index, ok := remain[0].(hcl.TraverseIndex); ok {
		key, err := ParseInstanceKey(index.Key)
		if err != nil {
			return nil, hcl.Diagnostics{errorDiag("Invalid index key",
				fmt.Sprintf("Invalid index for resource instance: %s.", err), index.SrcRange)}
		}
		instance.Key = key
		remain = remain[1:]
		rng = hcl.RangeBetween(rng, index.SrcRange)
	}
	return &Reference{Subject: instance, SourceRange: rng, Remaining: remain}, nil
}

func parseSingleAttrRef(traversal hcl.Traversal) (string, hcl.Range, hcl.Traversal, hcl.Diagnostics) {
	root := traversal.RootName()
	rootRange := traversal[0].SourceRange()
	if len(traversal) < 2 {
		return "", hcl.Range{}, nil, hcl.Diagnostics{errorDiag("Invalid reference",
			fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes.", root), rootRange)}
	}
	attr, ok := traversal[1].(hcl.TraverseAttr)
	if !ok {
		return "", hcl.Range{}, nil, hcl.Diagnostics{errorDiag("Invalid reference",
			fmt.Sprintf("The %q object does not support this operation.", root), traversal[1].SourceRange())}
	}
	return attr.Name, hcl.RangeBetween(rootRange, attr.SrcRange), traversal[2:], nil
}

// ReferencesInExpr returns the references an expression makes. Expressions
// that are nil have none.
func ReferencesInExpr(expr hcl.Expression) ([]*Reference, hcl.Diagnostics) {
	if expr == nil {
		return nil, nil
	}
	return References(expr.Variables())
}

// References parses each traversal as a reference, skipping the ones that
// fail and reporting why.
func References(traversals []hcl.Traversal) ([]*Reference, hcl.Diagnostics) {
	var refs []*Reference
	var diags hcl.Diagnostics
	for _, traversal := range traversals {
		ref, refDiags := ParseRef(traversal)
		diags = append(diags, refDiags...)
		if ref != nil {
			refs = append(refs, ref)
		}
	}
	return refs, diags
}

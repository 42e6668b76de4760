package arguments

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

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

// ParseTarget reads the value of a -target or -exclude option.
func ParseTarget(option, text string) (Target, diags.Diagnostics) {
	invalid := func(detail string) (Target, diags.Diagnostics) {
		return Target{}, diags.Diagnostics{diags.Errorf(fmt.Sprintf("Invalid %s address", option),
			"The address %q given to -%s is not valid: %s. Give a module (module.NAME), a resource (TYPE.NAME) or a resource instance (TYPE.NAME[KEY]), for example -%s='module.app.aws_instance.web[\"a\"]'.",
			text, option, detail, option)}
	}
	traversal, parseDiags := hclsyntax.ParseTraversalAbs([]byte(text), "", hcl.InitialPos)
	if parseDiags.HasErrors() {
		return invalid(parseDiags[0].Summary)
	}
	if module, moduleDiags := addrs.ParseModuleInstance(traversal); !moduleDiags.HasErrors() && len(module) > 0 {
		return Target{Addr: module}, nil
	}
	instance, instanceDiags := addrs.ParseAbsResourceInstance(traversal)
	if instanceDiags.HasErrors() {
		return invalid(instanceDiags[0].Detail)
	}
	if instance.Resource.Key == addrs.NoKey {
		return Target{Addr: instance.ContainingResource()}, nil
	}
	return Target{Addr: instance}, nil
}

// ParseReplace reads the value of a -replace option, which must name one
// resource instance of a managed resource.
func ParseReplace(text string) (addrs.AbsResourceInstance, diags.Diagnostics) {
	addr, parseDiags := addrs.ParseAbsResourceInstanceStr(text)
	if parseDiags.HasErrors() {
		return addr, diags.Diagnostics{diags.Errorf("Invalid replace address",
			"The address %q given to -replace is not a resource instance address: %s. Give one instance of a managed resource, for example -replace='aws_instance.web[0]'.",
			text, parseDiags[0].Detail)}
	}
	if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return addr, diags.Diagnostics{diags.Errorf("Invalid replace address",
			"The address %q given to -replace names a data resource; only managed resources can be replaced. Data resources are read again on every plan.", text)}
	}
	return addr, nil
}

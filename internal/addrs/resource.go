package addrs

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// ResourceMode tells managed resources from data sources.
type ResourceMode rune

const (
	// InvalidResourceMode is the zero value; no valid address has it.
	InvalidResourceMode ResourceMode = 0
	// ManagedResourceMode is a resource block: an object Terrane manages.
	ManagedResourceMode ResourceMode = 'M'
	// DataResourceMode is a data block: an object Terrane only reads.
	DataResourceMode ResourceMode = 'D'
	// EphemeralResourceMode is an ephemeral block: an object opened for
	// one run and closed at its end, never recorded.
	EphemeralResourceMode ResourceMode = 'E'
)

func (m ResourceMode) String() string {
	switch m {
	case ManagedResourceMode:
		return "managed"
	case DataResourceMode:
		return "data"
	case EphemeralResourceMode:
		return "ephemeral"
	}
	return "invalid"
}

// BlockType is the configuration block that declares resources of mode:
// "resource", "data" or "ephemeral"; also the prefix that names them in
// full (resource.TYPE.NAME).
func (m ResourceMode) BlockType() string {
	switch m {
	case DataResourceMode:
		return "data"
	case EphemeralResourceMode:
		return "ephemeral"
	}
	return "resource"
}

// TypeKind is what messages call the type of a resource of mode: "resource
// type", "data source" or "ephemeral resource type".
func (m ResourceMode) TypeKind() string {
	switch m {
	case DataResourceMode:
		return "data source"
	case EphemeralResourceMode:
		return "ephemeral resource type"
	}
	return "resource type"
}

// Resource is a resource block within a module: mode, type and name.
type Resource struct {
	Mode ResourceMode
	Type string
	Name string
}

func (r Resource) String() string {
	switch r.Mode {
	case DataResourceMode:
		return "data." + r.Type + "." + r.Name
	case EphemeralResourceMode:
		return "ephemeral." + r.Type + "." + r.Name
	}
	return r.Type + "." + r.Name
}

func (r Resource) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (r Resource) UniqueKey() UniqueKey { return r }

// Instance returns the address of the instance of r with the given key.
func (r Resource) Instance(key InstanceKey) ResourceInstance {
	return ResourceInstance{Resource: r, Key: key}
}

// ImpliedProvider returns the local name of the provider a resource type
// belongs to when no provider argument says otherwise: the part of the type
// before its first underscore ("aws" for "aws_instance").
func (r Resource) ImpliedProvider() string {
	typeName := r.Type
	if under := strings.IndexByte(typeName, '_'); under > 0 {
		typeName = typeName[:under]
	}
	return typeName
}

// ResourceInstance is one instance of a resource within a module.
type ResourceInstance struct {
	Resource Resource
	Key      InstanceKey
}

func (r ResourceInstance) String() string {
	return r.Resource.String() + instanceKeyString(r.Key)
}

type resourceInstanceKey struct {
	resource Resource
	key      UniqueKey
}

func (resourceInstanceKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (r ResourceInstance) UniqueKey() UniqueKey {
	return resourceInstanceKey{resource: r.Resource, key: uniqueKeyOf(r.Key)}
}

func uniqueKeyOf(key InstanceKey) UniqueKey {
	if key == NoKey {
		return nil
	}
	return key.UniqueKey()
}

// ConfigResource is a resource block within the static module tree, before
// module expansion: module.a.aws_instance.web.
type ConfigResource struct {
	Module   Module
	Resource Resource
}

func (r ConfigResource) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return r.Module.String() + "." + r.Resource.String()
}

type configResourceKey string

func (configResourceKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (r ConfigResource) UniqueKey() UniqueKey { return configResourceKey(r.String()) }

// AbsResource is a resource within one module instance, all its instances
// together: module.a["x"].aws_instance.web.
type AbsResource struct {
	Module   ModuleInstance
	Resource Resource
}

func (r AbsResource) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return r.Module.String() + "." + r.Resource.String()
}

type absResourceKey string

func (absResourceKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (r AbsResource) UniqueKey() UniqueKey { return absResourceKey(r.String()) }

// Instance returns the address of the instance of r with the given key.
func (r AbsResource) Instance(key InstanceKey) AbsResourceInstance {
	return AbsResourceInstance{Module: r.Module, Resource: r.Resource.Instance(key)}
}

// Config returns the static address of r's resource block.
func (r AbsResource) Config() ConfigResource {
	return ConfigResource{Module: r.Module.Module(), Resource: r.Resource}
}

// AbsResourceInstance is the full address of one resource instance:
// module.a["x"].null_resource.n[3]. This is the address state records use.
type AbsResourceInstance struct {
	Module   ModuleInstance
	Resource ResourceInstance
}

func (r AbsResourceInstance) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return r.Module.String() + "." + r.Resource.String()
}

type absResourceInstanceKey string

func (absResourceInstanceKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (r AbsResourceInstance) UniqueKey() UniqueKey { return absResourceInstanceKey(r.String()) }

// ContainingResource returns the address of all instances of r's resource.
func (r AbsResourceInstance) ContainingResource() AbsResource {
	return AbsResource{Module: r.Module, Resource: r.Resource.Resource}
}

// ParseAbsResourceInstanceStr parses a resource instance address such as
// module.a["x"].null_resource.n[3] or data.x.y.
func ParseAbsResourceInstanceStr(str string) (AbsResourceInstance, hcl.Diagnostics) {
	traversal, diags := parseTraversalStr(str)
	if diags.HasErrors() {
		return AbsResourceInstance{}, diags
	}
	return ParseAbsResourceInstance(traversal)
}

// ParseAbsResourceInstance reads a resource instance address from a
// traversal, as written in -target, moved, import and removed blocks.
func ParseAbsResourceInstance(traversal hcl.Traversal) (AbsResourceInstance, hcl.Diagnostics) {
	module, remain, diags := parseModuleInstancePrefix(traversal)
	if diags.HasErrors() {
		return AbsResourceInstance{}, diags
	}
	resource, remain, moreDiags := parseResourcePrefix(remain, traversal.SourceRange())
	diags = append(diags, moreDiags...)
	if diags.HasErrors() {
		return AbsResourceInstance{}, diags
	}
	addr := AbsResourceInstance{Module: module, Resource: ResourceInstance{Resource: resource}}
	if len(remain) > 0 {
		key, keyDiags := instanceKeyFromTraverser(remain[0])
		diags = append(diags, keyDiags...)
		if _, isIndex := remain[0].(hcl.TraverseIndex); !isIndex || keyDiags.HasErrors() {
			if !keyDiags.HasErrors() {
				diags = append(diags, errorDiag("Invalid resource instance address",
					"A resource instance address ends with the resource name, optionally followed by an index.", remain[0].SourceRange()))
			}
			return AbsResourceInstance{}, diags
		}
		addr.Resource.Key = key
		remain = remain[1:]
	}
	if len(remain) > 0 {
		diags = append(diags, errorDiag("Invalid resource instance address",
			"Unexpected extra operators after the resource instance address.", remain.SourceRange()))
		return AbsResourceInstance{}, diags
	}
	return addr, diags
}

// ParseAbsResourceStr parses the address of a resource with all its
// instances, such as module.a[0].aws_instance.web; an instance key on the
// resource itself is an error.
func ParseAbsResourceStr(str string) (AbsResource, hcl.Diagnostics) {
	inst, diags := ParseAbsResourceInstanceStr(str)
	if diags.HasErrors() {
		return AbsResource{}, diags
	}
	if inst.Resource.Key != NoKey {
		return AbsResource{}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Resource instance address with key is not allowed",
			Detail:   fmt.Sprintf("Expected the address of a whole resource, but %s names one of its instances.", inst),
		}}
	}
	return inst.ContainingResource(), diags
}

// parseResourcePrefix reads [data.|ephemeral.]TYPE.NAME from the start of
// remain.
func parseResourcePrefix(remain hcl.Traversal, whole hcl.Range) (Resource, hcl.Traversal, hcl.Diagnostics) {
	mode := ManagedResourceMode
	if len(remain) > 0 {
		switch traverserName(remain[0]) {
		case "data":
			mode = DataResourceMode
			remain = remain[1:]
		case "ephemeral":
			mode = EphemeralResourceMode
			remain = remain[1:]
		}
	}
	if len(remain) < 2 {
		what := "A resource address is TYPE.NAME, or data.TYPE.NAME for a data source."
		return Resource{}, nil, hcl.Diagnostics{errorDiag("Invalid resource address", what, whole)}
	}
	typeName, name := traverserName(remain[0]), traverserName(remain[1])
	if typeName == "" || name == "" {
		what := "A resource address is TYPE.NAME, or data.TYPE.NAME for a data source."
		return Resource{}, nil, hcl.Diagnostics{errorDiag("Invalid resource address", what, remain[:2].SourceRange())}
	}
	if _, isAttr := remain[1].(hcl.TraverseAttr); !isAttr {
		what := "A resource name must follow the resource type, separated by a dot."
		return Resource{}, nil, hcl.Diagnostics{errorDiag("Invalid resource address", what, remain[1].SourceRange())}
	}
	return Resource{Mode: mode, Type: typeName, Name: name}, remain[2:], nil
}

package pulumi

import (
	"context"
	"encoding/base64"
	"regexp"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// SubpackageVersion is the version of every sub-package Parameterize
// makes.
const SubpackageVersion = "1.0.0"

var subpackageName = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// Parameterize turns the provider into the sub-package NAME, whose one
// resource is NAME:index:Gadget (a Thing under another name, stored under
// NAME_gadget). The args form is ["NAME"]; the value form carries NAME as
// its value bytes, which is what the sub-package schema's parameterization
// records for a host to replay.
func (p *Provider) Parameterize(ctx context.Context, req *pulumirpc.ParameterizeRequest) (*pulumirpc.ParameterizeResponse, error) {
	var name string
	switch {
	case req.GetArgs() != nil:
		args := req.GetArgs().GetArgs()
		if len(args) != 1 {
			return nil, status.Errorf(codes.InvalidArgument, "tpulumi takes one parameter, the sub-package name; got %q", args)
		}
		name = args[0]
	case req.GetValue() != nil:
		name = string(req.GetValue().GetValue())
		if given := req.GetValue().GetName(); given != name {
			return nil, status.Errorf(codes.InvalidArgument, "parameter value %q does not match the sub-package name %q", name, given)
		}
	default:
		return nil, status.Error(codes.InvalidArgument, "Parameterize needs args or a value")
	}
	if !subpackageName.MatchString(name) || name == Name {
		return nil, status.Errorf(codes.InvalidArgument, "sub-package name %q must be lower-case letters and digits and not %q", name, Name)
	}
	p.mu.Lock()
	p.subpackage = name
	p.mu.Unlock()
	return &pulumirpc.ParameterizeResponse{Name: name, Version: SubpackageVersion}, nil
}

// subpackageSchema is the base schema renamed: package NAME, resource
// NAME:index:Gadget, function NAME:index:getGadget, and the
// parameterization a host records to replay the sub-package.
func subpackageSchema(name string) string {
	renamed := strings.NewReplacer(
		`"name": "tpulumi"`, `"name": "`+name+`"`,
		`"version": "`+Version+`"`, `"version": "`+SubpackageVersion+`"`,
		"tpulumi:", name+":",
		"Thing", "Gadget",
		"A thing", "A gadget",
	).Replace(packageSchema)
	parameterization := `"parameterization": {"baseProvider": {"name": "` + Name + `", "version": "` + Version + `"}, "parameter": "` +
		base64.StdEncoding.EncodeToString([]byte(name)) + `"},`
	return strings.Replace(renamed, "{", "{\n  "+parameterization, 1)
}

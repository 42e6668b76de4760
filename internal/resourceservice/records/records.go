package records

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// Record types. Tenancy is partition = project, namespace = workspace.
var (
	WorkspaceType        = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "Workspace"}
	ResourceInstanceType = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "ResourceInstance"}
	OutputType           = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "Output"}
)

// Types are every record type, owners (the Workspace type) first.
func Types() []*pbresource.Type {
	return []*pbresource.Type{WorkspaceType, ResourceInstanceType, OutputType, ComponentChildType}
}

// Tenancy returns the tenancy of a workspace's records.
func Tenancy(project, workspace string) *pbresource.Tenancy {
	return &pbresource.Tenancy{Partition: project, Namespace: workspace}
}

// WorkspaceID names the Workspace record of a workspace: it lives in the
// workspace's own tenancy and is named after it.
func WorkspaceID(project, workspace string) *pbresource.ID {
	return &pbresource.ID{Type: WorkspaceType, Tenancy: Tenancy(project, workspace), Name: workspace}
}

// InstanceID names the record of a resource instance by its address.
func InstanceID(project, workspace, instanceAddr string) *pbresource.ID {
	return &pbresource.ID{Type: ResourceInstanceType, Tenancy: Tenancy(project, workspace), Name: instanceAddr}
}

// OutputID names the record of a root module output.
func OutputID(project, workspace, outputName string) *pbresource.ID {
	return &pbresource.ID{Type: OutputType, Tenancy: Tenancy(project, workspace), Name: outputName}
}

// Register adds Terrane's record types to a registry.
func Register(registry *resourceservice.Registry) error {
	return errors.Join(
		registry.Register(resourceservice.Registration{
			Type: WorkspaceType, Data: &recordsv1.Workspace{}, Sealed: &recordsv1.Encrypted{},
			Validate: validateWorkspace, GuardDelete: guardWorkspaceDelete,
		}),
		registry.Register(resourceservice.Registration{
			Type: ResourceInstanceType, Data: &recordsv1.ResourceInstance{}, Sealed: &recordsv1.Encrypted{}, Leaf: true,
			Validate: validateResourceInstance,
		}),
		registry.Register(resourceservice.Registration{
			Type: OutputType, Data: &recordsv1.Output{}, Sealed: &recordsv1.Encrypted{}, Leaf: true,
			Validate: validateOutput,
		}),
		registerComponentChild(registry),
	)
}

func validateWorkspace(res *pbresource.Resource) error {
	if res.GetId().GetName() != res.GetId().GetTenancy().GetNamespace() {
		return fmt.Errorf("a workspace record must be named after its namespace %q", res.GetId().GetTenancy().GetNamespace())
	}
	if res.GetOwner() != nil {
		return errors.New("a workspace record has no owner")
	}
	if sealed(res) {
		return validSealed(res)
	}
	var ws recordsv1.Workspace
	if err := res.GetData().UnmarshalTo(&ws); err != nil {
		return err
	}
	return validJSON("check_results_json", ws.GetCheckResultsJson())
}

// guardWorkspaceDelete keeps state from being reaped by accident: a
// workspace that still holds resource instances is deleted only when forced.
func guardWorkspaceDelete(_ *pbresource.Resource, owned []*pbresource.Resource) error {
	var instances []string
	for _, res := range owned {
		if res.GetId().GetType().GetKind() == ResourceInstanceType.GetKind() && res.GetId().GetType().GetGroup() == ResourceInstanceType.GetGroup() {
			instances = append(instances, res.GetId().GetName())
		}
	}
	if len(instances) == 0 {
		return nil
	}
	return fmt.Errorf("the workspace still holds %d resource instances (first: %s); destroy them first, or force the delete to forget them", len(instances), instances[0])
}

// ownedByWorkspace checks a record is owned by the Workspace record of its
// own tenancy.
func ownedByWorkspace(res *pbresource.Resource) error {
	owner := res.GetOwner()
	tenancy := res.GetId().GetTenancy()
	if owner == nil {
		return errors.New("the record must be owned by its workspace record")
	}
	if owner.GetType().GetGroup() != WorkspaceType.GetGroup() || owner.GetType().GetKind() != WorkspaceType.GetKind() ||
		owner.GetTenancy().GetPartition() != tenancy.GetPartition() || owner.GetTenancy().GetNamespace() != tenancy.GetNamespace() ||
		owner.GetName() != tenancy.GetNamespace() {
		return fmt.Errorf("the record must be owned by workspace %q of project %q, not by %s %q", tenancy.GetNamespace(), tenancy.GetPartition(), owner.GetType().GetKind(), owner.GetName())
	}
	return nil
}

var deposedKeyPattern = regexp.MustCompile(`^[0-9a-f]{8}$`)

func validateResourceInstance(res *pbresource.Resource) error {
	if err := ownedByWorkspace(res); err != nil {
		return err
	}
	if sealed(res) {
		return validSealed(res)
	}
	var inst recordsv1.ResourceInstance
	if err := res.GetData().UnmarshalTo(&inst); err != nil {
		return err
	}
	switch {
	case inst.GetType() == "" || inst.GetName() == "":
		return errors.New("resource type and name are required")
	case inst.GetMode() == recordsv1.ResourceMode_RESOURCE_MODE_UNSPECIFIED:
		return errors.New("mode must be managed or data")
	case inst.GetProvider() == "":
		return errors.New(`the provider configuration address is required, e.g. provider["registry.terraform.io/hashicorp/null"]`)
	}
	if err := validateKey(inst.GetEach(), inst.GetKey()); err != nil {
		return err
	}
	if err := validateObject("current object", inst.GetCurrent()); err != nil {
		return err
	}
	for key, object := range inst.GetDeposed() {
		if !deposedKeyPattern.MatchString(key) {
			return fmt.Errorf("deposed key %q must be eight lowercase hex digits", key)
		}
		if err := validateObject("deposed object "+key, object); err != nil {
			return err
		}
	}
	if intent := inst.GetIntent(); intent != nil {
		if intent.GetOperation() == recordsv1.Operation_OPERATION_UNSPECIFIED || intent.GetRunId() == "" {
			return errors.New("an intent needs an operation and the run id that holds it")
		}
	}
	return nil
}

func validateKey(each recordsv1.EachMode, key *recordsv1.InstanceKey) error {
	switch {
	case each == recordsv1.EachMode_EACH_MODE_NONE && key != nil:
		return errors.New("an instance key is set but the resource has neither count nor for_each")
	case each == recordsv1.EachMode_EACH_MODE_LIST && key.GetKey() == nil:
		return errors.New("a count instance needs an integer key")
	case each == recordsv1.EachMode_EACH_MODE_LIST && key.GetKey() != nil && key.GetString_() != "":
		return errors.New("a count instance has an integer key, not a string")
	case each == recordsv1.EachMode_EACH_MODE_MAP:
		if _, ok := key.GetKey().(*recordsv1.InstanceKey_String_); !ok {
			return errors.New("a for_each instance needs a string key")
		}
	}
	return nil
}

func validateObject(what string, object *recordsv1.ObjectState) error {
	if object == nil {
		return nil
	}
	if err := validJSON(what+" attributes_json", object.GetAttributesJson()); err != nil {
		return err
	}
	return validJSON(what+" identity_json", object.GetIdentityJson())
}

func validateOutput(res *pbresource.Resource) error {
	if err := ownedByWorkspace(res); err != nil {
		return err
	}
	if sealed(res) {
		return validSealed(res)
	}
	var out recordsv1.Output
	if err := res.GetData().UnmarshalTo(&out); err != nil {
		return err
	}
	if err := validJSON("value_json", out.GetValueJson()); err != nil {
		return err
	}
	return validJSON("type_json", out.GetTypeJson())
}

// sealed reports whether res's data is encrypted (state encryption): the
// service checks its ID, owner and envelope, and the client holding the
// key checks the rest when it reads it.
func sealed(res *pbresource.Resource) bool {
	return res.GetData().MessageIs(&recordsv1.Encrypted{})
}

// validSealed checks the envelope of sealed data: a client that holds the
// key could not read it back without the encrypted data and its version.
func validSealed(res *pbresource.Resource) error {
	var env recordsv1.Encrypted
	if err := res.GetData().UnmarshalTo(&env); err != nil {
		return err
	}
	switch {
	case len(env.GetEncryptedData()) == 0:
		return errors.New("encrypted data is empty")
	case env.GetEncryptionVersion() == "":
		return errors.New("encrypted data has no encryption_version")
	}
	return nil
}

func validJSON(field string, data []byte) error {
	if len(data) > 0 && !json.Valid(data) {
		return fmt.Errorf("%s is not valid JSON", field)
	}
	return nil
}

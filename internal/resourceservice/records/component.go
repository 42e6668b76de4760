package records

import (
	"errors"
	"fmt"
	"strings"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// ComponentChildType is the type of the records of a component resource's
// children (recordsv1.ComponentChild).
var ComponentChildType = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "ComponentChild"}

// componentChildSeparator joins a component's address and a child's URN
// in the child record's name. Instance addresses never contain it outside
// quoted keys, and a name's prefix up to it is checked against the record's
// component field.
const componentChildSeparator = "/"

// ComponentChildID names the record of one child of the component at
// componentAddr.
func ComponentChildID(project, workspace, componentAddr, childURN string) *pbresource.ID {
	return &pbresource.ID{Type: ComponentChildType, Tenancy: Tenancy(project, workspace), Name: ComponentChildPrefix(componentAddr) + childURN}
}

// ComponentChildPrefix is the name prefix of a component's child records,
// for listing them.
func ComponentChildPrefix(componentAddr string) string {
	return componentAddr + componentChildSeparator
}

// registerComponentChild adds the ComponentChild type. Children are owned
// by the workspace, like instances, rather than by their component's
// record: ResourceInstance is a leaf type, so that deleting one of
// thousands of instances writes no tombstone; the engine deletes a
// component's children itself when it deletes the component.
func registerComponentChild(registry *resourceservice.Registry) error {
	return registry.Register(resourceservice.Registration{
		Type: ComponentChildType, Data: &recordsv1.ComponentChild{}, Sealed: &recordsv1.Encrypted{}, Leaf: true,
		Validate: validateComponentChild,
	})
}

func validateComponentChild(res *pbresource.Resource) error {
	if err := ownedByWorkspace(res); err != nil {
		return err
	}
	if sealed(res) {
		return validSealed(res)
	}
	var child recordsv1.ComponentChild
	if err := res.GetData().UnmarshalTo(&child); err != nil {
		return err
	}
	switch {
	case child.GetComponent() == "" || child.GetUrn() == "" || child.GetType() == "":
		return errors.New("a component child needs its component's address, its URN and its type")
	case !strings.HasPrefix(res.GetId().GetName(), ComponentChildPrefix(child.GetComponent())):
		return fmt.Errorf("a child of %s must be named %q followed by its URN", child.GetComponent(), ComponentChildPrefix(child.GetComponent()))
	}
	return validJSON("outputs_json", child.GetOutputsJson())
}

package native

import (
	"context"
	"maps"

	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi-go-provider/infer"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

// Stamp is an object with no Update and no Read of its own, as
// pulumi-command's resources are made: its value is chosen at create and
// chosen again (the object replaced) only when its keepers change, as
// pulumi-random's keepers work; other input changes are no change. Read
// is infer's default, which returns what it is given: an imported stamp
// has no recorded inputs or outputs.
type Stamp struct{}

// StampArgs are Stamp's inputs.
type StampArgs struct {
	Prefix  string            `pulumi:"prefix,optional" json:"prefix,omitempty"`
	Keepers map[string]string `pulumi:"keepers,optional" json:"keepers,omitempty"`
}

// StampState is Stamp's outputs.
type StampState struct {
	StampArgs
	// Value is the prefix and a random suffix, chosen when the stamp is
	// created.
	Value string `pulumi:"value,optional" json:"value,omitempty"`
}

// Annotate describes the resource.
func (s *Stamp) Annotate(a infer.Annotator) {
	a.Describe(s, "A value chosen once, replaced whenever an input changes.")
	a.SetToken("index", "Stamp")
}

const stampKind = "tpnative_stamp"

// Create chooses the value; a preview leaves it unknown.
func (s *Stamp) Create(ctx context.Context, req infer.CreateRequest[StampArgs]) (infer.CreateResponse[StampState], error) {
	if req.DryRun {
		return infer.CreateResponse[StampState]{Output: StampState{StampArgs: req.Inputs}}, nil
	}
	c, err := openCloud(ctx)
	if err != nil {
		return infer.CreateResponse[StampState]{}, err
	}
	id := cloud.NewID()
	state := StampState{StampArgs: req.Inputs, Value: req.Inputs.Prefix + "-" + id[:6]}
	if err := c.Put(stampKind, id, state); err != nil {
		return infer.CreateResponse[StampState]{}, err
	}
	return infer.CreateResponse[StampState]{ID: id, Output: state}, nil
}

// Diff replaces the stamp when its keepers change and finds no change
// otherwise.
func (s *Stamp) Diff(ctx context.Context, req infer.DiffRequest[StampArgs, StampState]) (infer.DiffResponse, error) {
	if maps.Equal(req.State.Keepers, req.Inputs.Keepers) {
		return infer.DiffResponse{}, nil
	}
	return infer.DiffResponse{
		HasChanges:   true,
		DetailedDiff: map[string]p.PropertyDiff{"keepers": {Kind: p.UpdateReplace, InputDiff: true}},
	}, nil
}

// Delete removes the stamp.
func (s *Stamp) Delete(ctx context.Context, req infer.DeleteRequest[StampState]) (infer.DeleteResponse, error) {
	c, err := openCloud(ctx)
	if err != nil {
		return infer.DeleteResponse{}, err
	}
	return infer.DeleteResponse{}, c.Delete(stampKind, req.ID)
}

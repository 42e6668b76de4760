package native

import (
	"context"
	"errors"
	"fmt"

	"github.com/pulumi/pulumi-go-provider/infer"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

// Stamp is an object with no Update, like pulumi-random's resources: any
// change of its inputs replaces it, and its value is chosen at create.
type Stamp struct{}

// StampArgs are Stamp's inputs.
type StampArgs struct {
	Prefix  string            `pulumi:"prefix"`
	Keepers map[string]string `pulumi:"keepers,optional"`
}

// StampState is Stamp's outputs.
type StampState struct {
	StampArgs
	// Value is the prefix and a random suffix, chosen when the stamp is
	// created.
	Value string `pulumi:"value"`
}

// Annotate describes the resource.
func (s *Stamp) Annotate(a infer.Annotator) {
	a.Describe(s, "A value chosen once, replaced whenever an input changes.")
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

// Read loads the stamp by ID (refresh and import).
func (s *Stamp) Read(ctx context.Context, req infer.ReadRequest[StampArgs, StampState]) (infer.ReadResponse[StampArgs, StampState], error) {
	c, err := openCloud(ctx)
	if err != nil {
		return infer.ReadResponse[StampArgs, StampState]{}, err
	}
	var state StampState
	switch err := c.Get(stampKind, req.ID, &state); {
	case errors.Is(err, cloud.ErrNotFound):
		return infer.ReadResponse[StampArgs, StampState]{}, nil
	case err != nil:
		return infer.ReadResponse[StampArgs, StampState]{}, fmt.Errorf("reading stamp %s: %w", req.ID, err)
	}
	return infer.ReadResponse[StampArgs, StampState]{ID: req.ID, Inputs: state.StampArgs, State: state}, nil
}

// Delete removes the stamp.
func (s *Stamp) Delete(ctx context.Context, req infer.DeleteRequest[StampState]) (infer.DeleteResponse, error) {
	c, err := openCloud(ctx)
	if err != nil {
		return infer.DeleteResponse{}, err
	}
	return infer.DeleteResponse{}, c.Delete(stampKind, req.ID)
}

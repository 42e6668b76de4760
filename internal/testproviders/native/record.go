package native

import (
	"context"
	"errors"
	"fmt"

	"github.com/pulumi/pulumi-go-provider/infer"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

// Record is an object updated in place, with the input shapes pulumi-command
// users meet: untyped values (Any), a list of untyped triggers whose change
// replaces the object, a secret and an output that is present only
// sometimes.
type Record struct{}

// RecordArgs are Record's inputs.
type RecordArgs struct {
	Name     string            `pulumi:"name" provider:"replaceOnChanges" json:"name,omitempty"`
	Content  string            `pulumi:"content,optional" json:"content,omitempty"`
	Tags     map[string]string `pulumi:"tags,optional" json:"tags,omitempty"`
	Triggers []any             `pulumi:"triggers,optional" provider:"replaceOnChanges" json:"triggers,omitempty"`
	Echo     any               `pulumi:"echo,optional" json:"echo,omitempty"`
	Password *string           `pulumi:"password,optional" provider:"secret" json:"password,omitempty"`
	Fail     string            `pulumi:"fail,optional" json:"fail,omitempty"`
}

// RecordState is Record's outputs: the inputs and what the cloud computed.
type RecordState struct {
	RecordArgs
	Length   int `pulumi:"length" json:"length,omitempty"`
	Revision int `pulumi:"revision" json:"revision,omitempty"`
	// Note is set only for long content: absent otherwise, as optional
	// outputs of native providers are.
	Note string `pulumi:"note,optional" json:"note,omitempty"`
}

// Annotate describes the resource.
func (r *Record) Annotate(a infer.Annotator) {
	a.Describe(r, "A record in the test cloud, updated in place.")
	a.SetToken("index", "Record")
}

// Annotate describes the inputs.
func (a *RecordArgs) Annotate(an infer.Annotator) {
	an.Describe(&a.Name, "The record's name; a new name replaces the record.")
	an.Describe(&a.Triggers, "Values of any type whose change replaces the record.")
	an.Describe(&a.Echo, "A value of any type, stored and returned as it is.")
	an.Describe(&a.Fail, "Failure switch: create, update, read or delete fail with an error and change nothing.")
}

const recordKind = "tpnative_record"

// noteThreshold is the content length from which a record has a note.
const noteThreshold = 20

func (r *Record) compute(args RecordArgs, revision int) RecordState {
	state := RecordState{RecordArgs: args, Length: len(args.Content), Revision: revision}
	if len(args.Content) >= noteThreshold {
		state.Note = "long content"
	}
	return state
}

// Create stores a new record; a preview reports what it would store.
func (r *Record) Create(ctx context.Context, req infer.CreateRequest[RecordArgs]) (infer.CreateResponse[RecordState], error) {
	if req.Inputs.Fail == "create" {
		return infer.CreateResponse[RecordState]{}, errors.New("create failed as the fail switch asked; nothing was created")
	}
	state := r.compute(req.Inputs, 1)
	if req.DryRun {
		return infer.CreateResponse[RecordState]{Output: state}, nil
	}
	c, err := openCloud(ctx)
	if err != nil {
		return infer.CreateResponse[RecordState]{}, err
	}
	id := cloud.NewID()
	if err := c.Put(recordKind, id, state); err != nil {
		return infer.CreateResponse[RecordState]{}, err
	}
	return infer.CreateResponse[RecordState]{ID: id, Output: state}, nil
}

// Update rewrites the record and counts the revision.
func (r *Record) Update(ctx context.Context, req infer.UpdateRequest[RecordArgs, RecordState]) (infer.UpdateResponse[RecordState], error) {
	if req.Inputs.Fail == "update" {
		return infer.UpdateResponse[RecordState]{}, errors.New("update failed as the fail switch asked; nothing was changed")
	}
	state := r.compute(req.Inputs, req.State.Revision+1)
	if req.DryRun {
		return infer.UpdateResponse[RecordState]{Output: state}, nil
	}
	c, err := openCloud(ctx)
	if err != nil {
		return infer.UpdateResponse[RecordState]{}, err
	}
	if err := c.Put(recordKind, req.ID, state); err != nil {
		return infer.UpdateResponse[RecordState]{}, err
	}
	return infer.UpdateResponse[RecordState]{Output: state}, nil
}

// Read loads the record by ID; refresh and import use it. A record that
// is gone answers an empty ID.
func (r *Record) Read(ctx context.Context, req infer.ReadRequest[RecordArgs, RecordState]) (infer.ReadResponse[RecordArgs, RecordState], error) {
	if req.State.Fail == "read" {
		return infer.ReadResponse[RecordArgs, RecordState]{}, errors.New("read failed as the fail switch asked")
	}
	c, err := openCloud(ctx)
	if err != nil {
		return infer.ReadResponse[RecordArgs, RecordState]{}, err
	}
	var state RecordState
	switch err := c.Get(recordKind, req.ID, &state); {
	case errors.Is(err, cloud.ErrNotFound):
		return infer.ReadResponse[RecordArgs, RecordState]{}, nil
	case err != nil:
		return infer.ReadResponse[RecordArgs, RecordState]{}, fmt.Errorf("reading record %s: %w", req.ID, err)
	}
	return infer.ReadResponse[RecordArgs, RecordState]{ID: req.ID, Inputs: state.RecordArgs, State: state}, nil
}

// Delete removes the record.
func (r *Record) Delete(ctx context.Context, req infer.DeleteRequest[RecordState]) (infer.DeleteResponse, error) {
	if req.State.Fail == "delete" {
		return infer.DeleteResponse{}, errors.New("delete failed as the fail switch asked; nothing was deleted")
	}
	c, err := openCloud(ctx)
	if err != nil {
		return infer.DeleteResponse{}, err
	}
	return infer.DeleteResponse{}, c.Delete(recordKind, req.ID)
}

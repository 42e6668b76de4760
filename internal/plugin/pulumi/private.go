package pulumi

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
)

// privateData is what a resource's later calls need, kept in the
// provider's private bytes: the engine stores them with the object without
// knowing about Pulumi.
type privateData struct {
	// URN names the object to the provider; it stays the same for the
	// object's life.
	URN string `json:"urn"`
	// Seed is the random seed Check gets: chosen once, so that Check's
	// random choices (auto-names) are the same in plan and apply.
	Seed []byte `json:"seed"`
	// Inputs are the inputs Check returned for the object's current (or,
	// in a plan, planned) configuration, in the wire form.
	Inputs json.RawMessage `json:"inputs,omitempty"`
	// PriorInputs, in a plan only, are the inputs before the change: Update
	// needs them and the apply request carries only the planned private.
	PriorInputs json.RawMessage `json:"prior_inputs,omitempty"`
	// Secrets are the paths of the object's values the provider returned
	// as secrets (beyond the schema's), sent back as secrets in Diff,
	// Update, Read and Delete.
	Secrets secretPathList `json:"secrets,omitempty"`
	// Outputs are the object's outputs exactly as the provider last
	// returned them (Create, Update, Read), in the wire form. Pulumi's
	// engine sends a resource's outputs back verbatim as the old properties
	// of Read, Diff, Update and Delete, and providers depend on it: a
	// bridged resource's "id" is an ordinary output, and the bridge
	// rebuilds the Terraform state from its "__meta" and
	// "__pulumi_raw_state_delta" outputs and the nulls it returned, none of
	// which the attribute values can carry.
	Outputs json.RawMessage `json:"outputs,omitempty"`
	// NoChange, in a plan only, records that Diff found nothing to change:
	// applying it records the configuration without calling the provider,
	// as Pulumi's engine records a "same" step's new inputs with the old
	// outputs.
	NoChange bool `json:"no_change,omitempty"`
}

// decodePrivate reads private bytes; empty bytes (a new object, or one
// imported) yield fresh data for typeToken.
func decodePrivate(raw []byte, typeToken string) (privateData, error) {
	var data privateData
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &data); err != nil {
			return data, fmt.Errorf("the stored private data is not Terrane's Pulumi record: %w", err)
		}
	}
	if len(data.Seed) == 0 {
		data.Seed = make([]byte, 32)
		if _, err := rand.Read(data.Seed); err != nil {
			return data, err
		}
	}
	if data.URN == "" {
		// The engine does not tell providers the resource's address, so the
		// name is derived from the seed: unique and stable for the object.
		data.URN = objectURN(typeToken, TypeName(typeToken)+"-"+hex.EncodeToString(data.Seed[:4]))
	}
	return data, nil
}

func (d privateData) encode() []byte {
	raw, _ := json.Marshal(d)
	return raw
}

func (d privateData) inputs() (*structpb.Struct, error) {
	return wireStructOf(d.Inputs, "inputs")
}

func (d privateData) withInputs(s *structpb.Struct) privateData {
	d.Inputs = wireJSON(s)
	return d
}

// outputs returns the outputs kept in Outputs; nil when none are kept (an
// object recorded before they were, or moved in from a state file).
func (d privateData) outputs() (*structpb.Struct, error) {
	return wireStructOf(d.Outputs, "outputs")
}

func (d privateData) withOutputs(s *structpb.Struct) privateData {
	d.Outputs = wireJSON(s)
	return d
}

// wireStructOf reads properties kept in the wire form; nil when none are
// kept.
func wireStructOf(raw json.RawMessage, what string) (*structpb.Struct, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var s structpb.Struct
	if err := protojson.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the stored %s are unreadable: %w", what, err)
	}
	return &s, nil
}

// name is the URN's last part, which Pulumi calls the resource name.
func (d privateData) name() string {
	for i := len(d.URN) - 1; i > 0; i-- {
		if d.URN[i] == ':' && d.URN[i-1] == ':' {
			return d.URN[i+1:]
		}
	}
	return d.URN
}

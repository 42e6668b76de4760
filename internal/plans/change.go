package plans

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/value"
)

// Change is a proposed change to one object, with decoded values. Before and
// After carry the sensitive mark (marks.Sensitive) where the values are
// sensitive; After may contain unknown values, to be known only after apply.
type Change struct {
	Action Action
	// Before is the object as it is (null for Create); After is the object
	// as it will be (null for Delete and Forget).
	Before, After cty.Value
	// BeforeIdentity and AfterIdentity are the object's resource identity,
	// for providers whose resource types declare one; cty.NilVal otherwise.
	BeforeIdentity, AfterIdentity cty.Value
	// Importing is set when the change imports an existing object.
	Importing *Importing
	// GeneratedConfig is configuration generated for an imported object
	// (plan -generate-config-out), as HCL source.
	GeneratedConfig string
}

// Importing describes the import a change performs.
type Importing struct {
	// ID is the import ID the configuration gave; Unknown is true when the
	// ID will only be known during apply.
	ID      string
	Unknown bool
	// Identity is the resource identity to import by, when the import block
	// gives one instead of an ID; cty.NilVal otherwise.
	Identity cty.Value
}

// ImportingSrc is Importing with its identity encoded.
type ImportingSrc struct {
	ID       string
	Unknown  bool
	Identity value.Dynamic
}

// ChangeSrc is a Change with its values encoded as msgpack and their
// sensitive marks lifted out into path lists. A null value is encoded as an
// empty value.Dynamic.
type ChangeSrc struct {
	Action                                    Action
	Before, After                             value.Dynamic
	BeforeSensitivePaths, AfterSensitivePaths []cty.Path
	BeforeIdentity, AfterIdentity             value.Dynamic
	Importing                                 *ImportingSrc
	GeneratedConfig                           string
}

// ObjectTypes are the types a change's values are encoded with: the
// object's type from its schema and, for resource types that declare one,
// the type of its identity (cty.NilType when there is none).
type ObjectTypes struct {
	Value    cty.Type
	Identity cty.Type
}

// Encode encodes c's values as the given types. It fails when a value does
// not conform to its type; the error names the value.
func (c *Change) Encode(types ObjectTypes) (*ChangeSrc, error) {
	return c.encode(types, nil)
}

// encode encodes c's values, sharing the bytes of known encodings (see
// EncodeSharing). An after value or identity equal to the before one
// shares its encoding too: a no-op holds its object once.
func (c *Change) encode(types ObjectTypes, known []KnownEncoding) (*ChangeSrc, error) {
	src := &ChangeSrc{Action: c.Action, GeneratedConfig: c.GeneratedConfig}
	before, err := encodeShared(c.Before, types.Value, known)
	if err != nil {
		return nil, fmt.Errorf("before value: %w", err)
	}
	if before.Value != cty.NilVal {
		known = append(known[:len(known):len(known)], before.KnownEncoding)
	}
	after, err := encodeShared(c.After, types.Value, known)
	if err != nil {
		return nil, fmt.Errorf("after value: %w", err)
	}
	src.Before, src.BeforeSensitivePaths = before.Encoded, before.sensitive
	src.After, src.AfterSensitivePaths = after.Encoded, after.sensitive
	if samePaths(before.sensitive, after.sensitive) {
		src.AfterSensitivePaths = src.BeforeSensitivePaths
	}
	if src.BeforeIdentity, err = encodeIdentity(c.BeforeIdentity, types.Identity); err != nil {
		return nil, fmt.Errorf("before identity: %w", err)
	}
	if c.AfterIdentity != cty.NilVal && c.BeforeIdentity != cty.NilVal && c.AfterIdentity.RawEquals(c.BeforeIdentity) {
		src.AfterIdentity = src.BeforeIdentity
	} else if src.AfterIdentity, err = encodeIdentity(c.AfterIdentity, types.Identity); err != nil {
		return nil, fmt.Errorf("after identity: %w", err)
	}
	if c.Importing != nil {
		src.Importing = &ImportingSrc{ID: c.Importing.ID, Unknown: c.Importing.Unknown}
		if src.Importing.Identity, err = encodeIdentity(c.Importing.Identity, types.Identity); err != nil {
			return nil, fmt.Errorf("importing identity: %w", err)
		}
	}
	return src, nil
}

// Decode decodes c's values as the given types and marks the sensitive
// paths. It fails, naming the value, when the bytes do not decode as the
// type or a sensitive path leads nowhere in the value.
func (c *ChangeSrc) Decode(types ObjectTypes) (*Change, error) {
	change := &Change{Action: c.Action, GeneratedConfig: c.GeneratedConfig}
	var err error
	if change.Before, err = decodeMarked(c.Before, c.BeforeSensitivePaths, types.Value); err != nil {
		return nil, fmt.Errorf("before value: %w", err)
	}
	if change.After, err = decodeMarked(c.After, c.AfterSensitivePaths, types.Value); err != nil {
		return nil, fmt.Errorf("after value: %w", err)
	}
	if change.BeforeIdentity, err = decodeIdentity(c.BeforeIdentity, types.Identity); err != nil {
		return nil, fmt.Errorf("before identity: %w", err)
	}
	if change.AfterIdentity, err = decodeIdentity(c.AfterIdentity, types.Identity); err != nil {
		return nil, fmt.Errorf("after identity: %w", err)
	}
	if c.Importing != nil {
		change.Importing = &Importing{ID: c.Importing.ID, Unknown: c.Importing.Unknown}
		if change.Importing.Identity, err = decodeIdentity(c.Importing.Identity, types.Identity); err != nil {
			return nil, fmt.Errorf("importing identity: %w", err)
		}
	}
	return change, nil
}

// refuseEphemeral fails for a value holding an ephemeral value, which no
// plan may contain (see marks.StoredEphemeral).
func refuseEphemeral(v cty.Value) error {
	if paths := marks.StoredEphemeral(v); len(paths) > 0 {
		return fmt.Errorf("the value at %s is ephemeral and is never written to a plan", value.FormatPath(paths[0]))
	}
	return nil
}

// unmarkSensitive unmarks v and returns the paths that carried the
// sensitive mark.
func unmarkSensitive(v cty.Value) (cty.Value, []cty.Path) {
	unmarked, pathMarks := marks.UnmarkDeepWithPaths(v)
	var sensitive []cty.Path
	for _, pm := range pathMarks {
		if _, ok := pm.Marks[marks.Sensitive]; ok {
			sensitive = append(sensitive, pm.Path)
		}
	}
	return unmarked, sensitive
}

func decodeMarked(d value.Dynamic, sensitive []cty.Path, ty cty.Type) (cty.Value, error) {
	v, err := value.Decode(d, ty)
	if err != nil {
		return cty.NilVal, err
	}
	if len(sensitive) == 0 {
		return v, nil
	}
	for _, path := range sensitive {
		// A path into a value that has no such part means the plan was
		// written against a different schema; marking it would panic.
		if _, err := path.Apply(v); err != nil && !v.IsNull() {
			return cty.NilVal, fmt.Errorf("sensitive path %s is not in the value: %w", value.FormatPath(path), err)
		}
	}
	pathMarks := make([]cty.PathValueMarks, len(sensitive))
	for i, path := range sensitive {
		pathMarks[i] = cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks(marks.Sensitive)}
	}
	return marks.MarkWithPaths(v, pathMarks), nil
}

func encodeIdentity(v cty.Value, ty cty.Type) (value.Dynamic, error) {
	if v == cty.NilVal || ty == cty.NilType {
		return value.Dynamic{}, nil
	}
	return value.Encode(v, ty)
}

func decodeIdentity(d value.Dynamic, ty cty.Type) (cty.Value, error) {
	if d.IsEmpty() {
		return cty.NilVal, nil
	}
	if ty == cty.NilType {
		return cty.NilVal, fmt.Errorf("the change carries an identity, but the resource type declares no identity schema")
	}
	return value.Decode(d, ty)
}

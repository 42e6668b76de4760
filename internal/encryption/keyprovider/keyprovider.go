package keyprovider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"
)

// Type describes one key provider type ("pbkdf2", "aws_kms", ...).
type Type interface {
	// Name is the type's name, the key_provider block's first label.
	Name() string
	// Spec is the schema of the block's body (without the
	// encrypted_metadata_alias argument every key provider accepts).
	Spec() hcldec.Spec
	// Build makes a Provider from the body's value, decoded with Spec. A
	// value may hold unknown values where another key provider's keys are
	// referenced and the configuration is only being validated; Build
	// then checks what it can.
	Build(config cty.Value) (Provider, error)
}

// Provider is a configured key provider.
type Provider interface {
	// EncryptionKey returns a key for encrypting new data and the metadata
	// (JSON, or nil) to store beside that data so that DecryptionKey can
	// give the same key again.
	EncryptionKey(ctx context.Context) (key []byte, meta []byte, err error)
	// DecryptionKey returns the key for data stored with meta. A nil meta
	// means this provider stored nothing with the data; a provider that
	// needs metadata returns ErrNoMetadata then.
	DecryptionKey(ctx context.Context, meta []byte) ([]byte, error)
}

// Reusable is implemented by providers whose decryption key for some
// metadata is exactly the encryption key that made it (a derived or
// unwrapped data key), so that later data may be encrypted under the same
// metadata without a new derivation or a new call to a key service. Reuse
// is what keeps a store whose records were written by many runs from
// costing one key derivation per run to read.
type Reusable interface {
	// ReusableFor reports whether meta, and key its decryption gave, were
	// made with the provider's current settings, so that encrypting with
	// key is what a new key would do too.
	ReusableFor(meta, key []byte) bool
}

// ErrNoMetadata is returned by DecryptionKey when the data carries no
// metadata from this key provider: it was not encrypted with its keys.
var ErrNoMetadata = errors.New("the data carries no metadata from this key provider, so it was not encrypted with its keys")

// Output is a key provider's result as methods and chained key providers
// see it: OpenTofu's object with encryption_key and decryption_key, each a
// list of byte values or null.
type Output struct {
	EncryptionKey []byte
	DecryptionKey []byte
}

// OutputType is the object type of an Output value.
var OutputType = cty.Object(map[string]cty.Type{
	"encryption_key": cty.List(cty.Number),
	"decryption_key": cty.List(cty.Number),
})

// Value returns o as the object methods and key providers reference.
func (o Output) Value() cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"encryption_key": bytesValue(o.EncryptionKey),
		"decryption_key": bytesValue(o.DecryptionKey),
	})
}

func bytesValue(b []byte) cty.Value {
	if len(b) == 0 {
		return cty.NullVal(cty.List(cty.Number))
	}
	elems := make([]cty.Value, len(b))
	for i, c := range b {
		elems[i] = cty.NumberIntVal(int64(c))
	}
	return cty.ListVal(elems)
}

// DecodeOutput reads a keys value: a key provider reference, or an object
// of the same shape written out. It returns known=false when the value is
// not known yet (the configuration is only being validated).
func DecodeOutput(val cty.Value) (out Output, known bool, err error) {
	if !val.IsWhollyKnown() {
		return out, false, nil
	}
	if val.IsNull() || !(val.Type().IsObjectType() || val.Type().IsMapType()) {
		return out, true, fmt.Errorf("expected a key provider's keys (key_provider.TYPE.NAME, or an object with encryption_key and decryption_key), not %s", friendly(val))
	}
	attrs := val.AsValueMap()
	encryption, ok := attrs["encryption_key"]
	if !ok {
		return out, true, errors.New("the keys object has no encryption_key")
	}
	if out.EncryptionKey, err = decodeBytes(encryption); err != nil {
		return out, true, fmt.Errorf("encryption_key: %w", err)
	}
	if decryption, ok := attrs["decryption_key"]; ok {
		if out.DecryptionKey, err = decodeBytes(decryption); err != nil {
			return out, true, fmt.Errorf("decryption_key: %w", err)
		}
	}
	return out, true, nil
}

func decodeBytes(val cty.Value) ([]byte, error) {
	if val.IsNull() {
		return nil, nil
	}
	list, err := convert.Convert(val, cty.List(cty.Number))
	if err != nil {
		return nil, fmt.Errorf("expected a list of byte values: %w", err)
	}
	var out []byte
	if err := gocty.FromCtyValue(list, &out); err != nil {
		return nil, fmt.Errorf("expected a list of byte values (0 to 255): %w", err)
	}
	return out, nil
}

func friendly(val cty.Value) string {
	if val.IsNull() {
		return "null"
	}
	return val.Type().FriendlyName()
}

// Attr is a convenience for Build: the named attribute of config, or a
// null of its type when config is null.
func Attr(config cty.Value, name string) cty.Value {
	if config.IsNull() || !config.Type().HasAttribute(name) {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return config.GetAttr(name)
}

// String returns a known string attribute, or "".
func String(config cty.Value, name string) string {
	val := Attr(config, name)
	if val.IsNull() || !val.IsKnown() || val.Type() != cty.String {
		return ""
	}
	return val.AsString()
}

// Int returns a known number attribute, or fallback when it is not set.
func Int(config cty.Value, name string, fallback int) (int, error) {
	val := Attr(config, name)
	if val.IsNull() || !val.IsKnown() {
		return fallback, nil
	}
	var n int
	if err := gocty.FromCtyValue(val, &n); err != nil {
		return 0, fmt.Errorf("%s must be a whole number: %w", name, err)
	}
	return n, nil
}

// Strings returns a known list-of-strings attribute, or nil.
func Strings(config cty.Value, name string) []string {
	val := Attr(config, name)
	if val.IsNull() || !val.IsWhollyKnown() {
		return nil
	}
	var out []string
	if err := gocty.FromCtyValue(val, &out); err != nil {
		return nil
	}
	return out
}

// Known reports whether config's attribute is known (it is unknown when it
// depends on another key provider's keys during validation).
func Known(config cty.Value, name string) bool {
	return Attr(config, name).IsWhollyKnown()
}

// ConfigError is a problem with a key provider's or method's arguments.
type ConfigError struct {
	// Attribute names the argument at fault, when one is.
	Attribute string
	Message   string
}

func (e *ConfigError) Error() string {
	if e.Attribute == "" {
		return e.Message
	}
	return e.Attribute + ": " + e.Message
}

// Invalid returns a ConfigError.
func Invalid(attribute, format string, args ...any) error {
	return &ConfigError{Attribute: attribute, Message: fmt.Sprintf(format, args...)}
}

// Subject returns the source range of the named attribute in body, or
// fallback; diagnostics use it to point at the argument at fault.
func Subject(body hcl.Body, attribute string, fallback hcl.Range) *hcl.Range {
	if attribute != "" {
		if attrs, diags := body.JustAttributes(); !diags.HasErrors() {
			if attr, ok := attrs[attribute]; ok {
				return attr.Expr.Range().Ptr()
			}
		}
		content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: attribute}}})
		if attr, ok := content.Attributes[attribute]; ok {
			return attr.Expr.Range().Ptr()
		}
	}
	return &fallback
}

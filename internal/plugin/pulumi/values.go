package pulumi

import (
	"fmt"
	"math/big"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"google.golang.org/protobuf/types/known/structpb"
)

// marshalOptions are how values cross the wire: unknowns travel as the
// SDK's sentinels and secrets as secret values, both ways.
var marshalOptions = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, SkipNulls: true}

// unmarshalOptions read answers: output values (accept_outputs) are kept,
// so their known, secret and unknown flags all reach the conversion.
var unmarshalOptions = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, SkipNulls: true, KeepOutputValues: true}

// secretMark marks, while a value is converted for the wire, the parts
// that go as secrets.
type secretMarkType struct{}

var secretMark = secretMarkType{}

// wireOptions say what a provider accepts, from its Handshake or
// Configure answer.
type wireOptions struct {
	// secrets: the provider takes secret values; otherwise secrets go as
	// plain values.
	secrets bool
	// outputs: the provider takes output values (accept_outputs); unknowns
	// and secrets then travel as output values, as Pulumi's engine sends
	// them.
	outputs bool
}

// toWire marshals a resource object into Pulumi properties; the values
// at the secret paths are sent as secrets, and "id" (the object's ID, not
// a property) is left out.
func (p *Package) toWire(v cty.Value, secret []cty.Path, opts wireOptions) (*structpb.Struct, error) {
	return p.marshal(v, secret, true, opts)
}

// argsToWire marshals a provider configuration or function arguments,
// where "id" is an ordinary property.
func (p *Package) argsToWire(v cty.Value, secret []cty.Path, opts wireOptions) (*structpb.Struct, error) {
	return p.marshal(v, secret, false, opts)
}

func (p *Package) marshal(v cty.Value, secret []cty.Path, skipID bool, opts wireOptions) (*structpb.Struct, error) {
	if !opts.secrets {
		secret = nil
	}
	props, err := p.toProperties(v, secret, skipID)
	if err != nil {
		return nil, err
	}
	options := marshalOptions
	options.KeepOutputValues, options.UpgradeToOutputValues = opts.outputs, opts.outputs
	return plugin.MarshalProperties(props, options)
}

// toProperties converts an object value to a property map: attribute
// names become Pulumi property names, null attributes are left out (Pulumi
// treats an absent property as unset) and, with skipID, "id" is left out.
// Values at the secret paths become secrets; other marks are dropped.
func (p *Package) toProperties(v cty.Value, secret []cty.Path, skipID bool) (resource.PropertyMap, error) {
	props := resource.PropertyMap{}
	if v.IsNull() || !v.IsKnown() {
		return props, nil
	}
	v, _ = v.UnmarkDeep()
	marks := make([]cty.PathValueMarks, 0, len(secret))
	for _, path := range secret {
		marks = append(marks, cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks(secretMark)})
	}
	v = v.MarkWithPaths(marks)
	if v.IsMarked() { // the whole object is secret: its attributes are
		v, _ = v.Unmark()
		v = v.MarkWithPaths(topAttributePaths(v, secretMark))
	}
	for name, attr := range v.AsValueMap() {
		if (skipID && name == "id") || attr.IsNull() {
			continue
		}
		pv, err := p.toProperty(attr, v.Type().AttributeType(name))
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		props[resource.PropertyKey(p.PulumiName(name))] = pv
	}
	return props, nil
}

// topAttributePaths marks every attribute of an object.
func topAttributePaths(obj cty.Value, mark any) []cty.PathValueMarks {
	var out []cty.PathValueMarks
	for name := range obj.Type().AttributeTypes() {
		out = append(out, cty.PathValueMarks{Path: cty.GetAttrPath(name), Marks: cty.NewValueMarks(mark)})
	}
	return out
}

// toProperty converts one value; ty is its schema type, which decides
// whether object keys are attribute names (translated) or data (kept, as
// in maps and dynamic values).
func (p *Package) toProperty(v cty.Value, ty cty.Type) (resource.PropertyValue, error) {
	if v.HasMark(secretMark) {
		plain, _ := v.Unmark()
		pv, err := p.toProperty(plain, ty)
		return resource.MakeSecret(pv), err
	}
	switch {
	case !v.IsKnown():
		return resource.MakeComputed(resource.NewStringProperty("")), nil
	case v.IsNull():
		return resource.NewNullProperty(), nil
	}
	vt := v.Type()
	switch {
	case ty.Equals(assetType) && vt.IsObjectType():
		return assetProperty(v)
	case ty.Equals(archiveType) && vt.IsObjectType():
		return archiveProperty(v)
	case vt == cty.String:
		return resource.NewStringProperty(v.AsString()), nil
	case vt == cty.Number:
		return numberProperty(v.AsBigFloat())
	case vt == cty.Bool:
		return resource.NewBoolProperty(v.True()), nil
	case vt.IsListType() || vt.IsSetType() || vt.IsTupleType():
		var items []resource.PropertyValue
		for i, elem := range v.AsValueSlice() {
			item, err := p.toProperty(elem, elementType(ty, i))
			if err != nil {
				return resource.PropertyValue{}, err
			}
			items = append(items, item)
		}
		return resource.NewArrayProperty(items), nil
	case vt.IsMapType() || vt.IsObjectType():
		translate := ty.IsObjectType()
		obj := resource.PropertyMap{}
		for key, elem := range v.AsValueMap() {
			if translate && elem.IsNull() {
				continue
			}
			item, err := p.toProperty(elem, memberType(ty, key))
			if err != nil {
				return resource.PropertyValue{}, err
			}
			if translate {
				key = p.PulumiName(key)
			}
			obj[resource.PropertyKey(key)] = item
		}
		return resource.NewObjectProperty(obj), nil
	}
	return resource.PropertyValue{}, fmt.Errorf("values of type %s cannot be sent to a Pulumi provider", vt.FriendlyName())
}

// numberProperty sends a number. Pulumi numbers are 64-bit floats, so an
// integer beyond 2^53 that a float cannot hold exactly is refused rather
// than silently rounded (the rounded value would differ on every plan).
func numberProperty(n *big.Float) (resource.PropertyValue, error) {
	f, accuracy := n.Float64()
	if n.IsInt() && accuracy != big.Exact {
		return resource.PropertyValue{}, fmt.Errorf("the integer %s cannot be sent exactly: Pulumi numbers are 64-bit floating point, exact only up to 2^53 (9007199254740992); pass it as a string if the provider accepts one", n.Text('f', -1))
	}
	return resource.NewNumberProperty(f), nil
}

func elementType(ty cty.Type, i int) cty.Type {
	switch {
	case ty.IsListType() || ty.IsSetType():
		return ty.ElementType()
	case ty.IsTupleType() && i < len(ty.TupleElementTypes()):
		return ty.TupleElementTypes()[i]
	}
	return cty.DynamicPseudoType
}

func memberType(ty cty.Type, key string) cty.Type {
	switch {
	case ty.IsMapType():
		return ty.ElementType()
	case ty.IsObjectType() && ty.HasAttribute(key):
		return ty.AttributeType(key)
	}
	return cty.DynamicPseudoType
}

// fromWire unmarshals Pulumi properties into an object of type ty. It
// also returns the paths of the values the provider marked secret, which
// the engine marks sensitive: Pulumi providers return secrets at run time,
// not only where the schema declares them.
func (p *Package) fromWire(s *structpb.Struct, ty cty.Type) (cty.Value, []cty.Path, error) {
	props, err := plugin.UnmarshalProperties(s, unmarshalOptions)
	if err != nil {
		return cty.NilVal, nil, err
	}
	r := &wireReader{pkg: p}
	v, err := r.read(resource.NewObjectProperty(props), ty, nil)
	return v, r.secrets, err
}

// fromProperty converts one property value to ty, dropping secret marks.
func (p *Package) fromProperty(pv resource.PropertyValue, ty cty.Type) (cty.Value, error) {
	r := &wireReader{pkg: p}
	return r.read(pv, ty, nil)
}

// wireReader converts property values to cty values, collecting the paths
// of secrets on the way.
type wireReader struct {
	pkg     *Package
	secrets []cty.Path
}

// at is path extended by step, in fresh memory: paths are kept, so they
// must not share a backing array.
func at(path cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(path), len(path)+1)
	copy(out, path)
	return append(out, step)
}

// read converts pv to ty. Unknown sentinels and unknown outputs become
// unknown values; a secret, or an output marked secret, loses its wrapper
// and its path is recorded.
func (r *wireReader) read(pv resource.PropertyValue, ty cty.Type, path cty.Path) (cty.Value, error) {
	pv = r.unwrapSecret(pv, path)
	switch {
	case pv.IsComputed() || (pv.IsOutput() && !pv.OutputValue().Known):
		return cty.UnknownVal(ty), nil
	case pv.IsOutput():
		return r.read(pv.OutputValue().Element, ty, path)
	case pv.IsNull():
		return cty.NullVal(ty), nil
	case pv.IsAsset():
		return convert.Convert(assetValue(pv.AssetValue()), ty)
	case pv.IsArchive():
		return convert.Convert(archiveValue(pv.ArchiveValue()), ty)
	case pv.IsResourceReference():
		return convert.Convert(referenceValue(pv.ResourceReferenceValue(), ty), ty)
	case ty.IsObjectType() && pv.IsObject():
		return r.object(pv.ObjectValue(), ty, path)
	case (ty.IsListType() || ty.IsSetType()) && pv.IsArray():
		return r.collection(pv.ArrayValue(), ty, path)
	case ty.IsMapType() && pv.IsObject():
		return r.mapping(pv.ObjectValue(), ty, path)
	}
	v, err := r.dynamic(pv, path)
	if err != nil {
		return cty.NilVal, err
	}
	return convert.Convert(v, ty)
}

func (r *wireReader) object(props resource.PropertyMap, ty cty.Type, path cty.Path) (cty.Value, error) {
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, attrType := range ty.AttributeTypes() {
		item, ok := props[resource.PropertyKey(r.pkg.PulumiName(name))]
		if !ok {
			attrs[name] = cty.NullVal(attrType)
			continue
		}
		v, err := r.read(item, attrType, at(path, cty.GetAttrStep{Name: name}))
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s: %w", name, err)
		}
		attrs[name] = v
	}
	return cty.ObjectVal(attrs), nil
}

func (r *wireReader) mapping(props resource.PropertyMap, ty cty.Type, path cty.Path) (cty.Value, error) {
	elems := make(map[string]cty.Value)
	for key, item := range props {
		v, err := r.read(item, ty.ElementType(), at(path, cty.IndexStep{Key: cty.StringVal(string(key))}))
		if err != nil {
			return cty.NilVal, fmt.Errorf("[%q]: %w", key, err)
		}
		elems[string(key)] = v
	}
	if len(elems) == 0 {
		return cty.MapValEmpty(ty.ElementType()), nil
	}
	return convert.Convert(cty.ObjectVal(elems), ty)
}

// unwrapSecret records path when pv is a secret (or an output value
// marked secret) and returns the value inside.
func (r *wireReader) unwrapSecret(pv resource.PropertyValue, path cty.Path) resource.PropertyValue {
	for {
		switch {
		case pv.IsSecret():
			r.secrets = append(r.secrets, path)
			pv = pv.SecretValue().Element
		case pv.IsOutput() && pv.OutputValue().Secret:
			r.secrets = append(r.secrets, path)
			out := pv.OutputValue()
			out.Secret = false
			pv = resource.NewOutputProperty(out)
		default:
			return pv
		}
	}
}

// collection converts an array to a list or set. A set element has no
// path of its own until its value is known, so a secret inside a set
// marks the whole set.
func (r *wireReader) collection(items []resource.PropertyValue, ty cty.Type, path cty.Path) (cty.Value, error) {
	elems := make([]cty.Value, 0, len(items))
	before := len(r.secrets)
	for i, item := range items {
		v, err := r.read(item, ty.ElementType(), at(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}))
		if err != nil {
			return cty.NilVal, fmt.Errorf("[%d]: %w", i, err)
		}
		elems = append(elems, v)
	}
	if ty.IsSetType() && len(r.secrets) > before {
		r.secrets = append(r.secrets[:before], path)
	}
	switch {
	case len(elems) == 0 && ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType()), nil
	case len(elems) == 0:
		return cty.ListValEmpty(ty.ElementType()), nil
	case ty.IsSetType():
		return cty.SetVal(elems), nil
	}
	return cty.ListVal(elems), nil
}

// dynamic converts a property value whose type the schema does not fix,
// keeping object keys as they are.
func (r *wireReader) dynamic(pv resource.PropertyValue, path cty.Path) (cty.Value, error) {
	pv = r.unwrapSecret(pv, path)
	switch {
	case pv.IsComputed() || pv.IsOutput() && !pv.OutputValue().Known:
		return cty.DynamicVal, nil
	case pv.IsOutput():
		return r.dynamic(pv.OutputValue().Element, path)
	case pv.IsNull():
		return cty.NullVal(cty.DynamicPseudoType), nil
	case pv.IsString():
		return cty.StringVal(pv.StringValue()), nil
	case pv.IsNumber():
		return cty.NumberVal(new(big.Float).SetFloat64(pv.NumberValue())), nil
	case pv.IsBool():
		return cty.BoolVal(pv.BoolValue()), nil
	case pv.IsArray():
		elems := make([]cty.Value, 0, len(pv.ArrayValue()))
		for i, item := range pv.ArrayValue() {
			v, err := r.dynamic(item, at(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}))
			if err != nil {
				return cty.NilVal, err
			}
			elems = append(elems, v)
		}
		return cty.TupleVal(elems), nil
	case pv.IsObject():
		attrs := make(map[string]cty.Value)
		for key, item := range pv.ObjectValue() {
			v, err := r.dynamic(item, at(path, cty.GetAttrStep{Name: string(key)}))
			if err != nil {
				return cty.NilVal, err
			}
			attrs[string(key)] = v
		}
		return cty.ObjectVal(attrs), nil
	case pv.IsResourceReference():
		return referenceValue(pv.ResourceReferenceValue(), cty.DynamicPseudoType), nil
	case pv.IsAsset():
		return assetValue(pv.AssetValue()), nil
	case pv.IsArchive():
		return archiveValue(pv.ArchiveValue()), nil
	}
	return cty.NilVal, fmt.Errorf("the provider returned a %s value, which Terrane cannot use yet", pv.TypeString())
}

// propertyPaths turns attribute paths into Pulumi property paths
// ("tags.team", "rules[0].action"), as ignoreChanges lists them. The
// id attribute, the object's ID rather than a property, is left out.
func (p *Package) propertyPaths(paths []cty.Path) []string {
	var out []string
	for _, path := range paths {
		var property resource.PropertyPath
		for _, step := range path {
			switch step := step.(type) {
			case cty.GetAttrStep:
				property = append(property, p.PulumiName(step.Name))
			case cty.IndexStep:
				if step.Key.Type() == cty.Number {
					i, _ := step.Key.AsBigFloat().Int64()
					property = append(property, int(i))
				} else if step.Key.Type() == cty.String {
					property = append(property, step.Key.AsString())
				}
			}
		}
		if len(property) > 0 && !(len(property) == 1 && property[0] == "id") {
			out = append(out, property.String())
		}
	}
	return out
}

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

// toWire marshals a resource object into Pulumi properties; the
// attributes named in secret are sent as secrets, and "id" (the object's
// ID, not a property) is left out.
func (p *Package) toWire(v cty.Value, secret map[string]bool) (*structpb.Struct, error) {
	return p.marshal(v, secret, true)
}

// argsToWire marshals a provider configuration or function arguments,
// where "id" is an ordinary property.
func (p *Package) argsToWire(v cty.Value) (*structpb.Struct, error) {
	return p.marshal(v, nil, false)
}

func (p *Package) marshal(v cty.Value, secret map[string]bool, skipID bool) (*structpb.Struct, error) {
	props, err := p.toProperties(v, secret, skipID)
	if err != nil {
		return nil, err
	}
	return plugin.MarshalProperties(props, marshalOptions)
}

// toProperties converts an object value to a property map: attribute
// names become Pulumi property names, null attributes are left out (Pulumi
// treats an absent property as unset) and, with skipID, "id" is left out.
func (p *Package) toProperties(v cty.Value, secret map[string]bool, skipID bool) (resource.PropertyMap, error) {
	props := resource.PropertyMap{}
	if v.IsNull() || !v.IsKnown() {
		return props, nil
	}
	v, _ = v.UnmarkDeep()
	for name, attr := range v.AsValueMap() {
		if (skipID && name == "id") || attr.IsNull() {
			continue
		}
		pv, err := p.toProperty(attr, v.Type().AttributeType(name))
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		if secret[name] {
			pv = resource.MakeSecret(pv)
		}
		props[resource.PropertyKey(p.PulumiName(name))] = pv
	}
	return props, nil
}

// toProperty converts one value; ty is its schema type, which decides
// whether object keys are attribute names (translated) or data (kept, as
// in maps and dynamic values).
func (p *Package) toProperty(v cty.Value, ty cty.Type) (resource.PropertyValue, error) {
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

// fromWire unmarshals Pulumi properties into an object of type ty.
func (p *Package) fromWire(s *structpb.Struct, ty cty.Type) (cty.Value, error) {
	props, err := plugin.UnmarshalProperties(s, marshalOptions)
	if err != nil {
		return cty.NilVal, err
	}
	return p.fromProperty(resource.NewObjectProperty(props), ty)
}

// fromProperty converts a property value to ty. Unknown sentinels and
// unknown outputs become unknown values; secrets lose their wrapper (the
// schema marks secret attributes sensitive).
func (p *Package) fromProperty(pv resource.PropertyValue, ty cty.Type) (cty.Value, error) {
	switch {
	case pv.IsComputed() || (pv.IsOutput() && !pv.OutputValue().Known):
		return cty.UnknownVal(ty), nil
	case pv.IsOutput():
		return p.fromProperty(pv.OutputValue().Element, ty)
	case pv.IsSecret():
		return p.fromProperty(pv.SecretValue().Element, ty)
	case pv.IsNull():
		return cty.NullVal(ty), nil
	case pv.IsAsset():
		return convert.Convert(assetValue(pv.AssetValue()), ty)
	case pv.IsArchive():
		return convert.Convert(archiveValue(pv.ArchiveValue()), ty)
	case pv.IsResourceReference():
		return convert.Convert(referenceValue(pv.ResourceReferenceValue(), ty), ty)
	case ty.IsObjectType() && pv.IsObject():
		return p.objectFromProperties(pv.ObjectValue(), ty)
	case (ty.IsListType() || ty.IsSetType()) && pv.IsArray():
		return p.collectionFromProperty(pv.ArrayValue(), ty)
	case ty.IsMapType() && pv.IsObject():
		elems := make(map[string]cty.Value)
		for key, item := range pv.ObjectValue() {
			v, err := p.fromProperty(item, ty.ElementType())
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
	v, err := dynamicValue(pv)
	if err != nil {
		return cty.NilVal, err
	}
	return convert.Convert(v, ty)
}

func (p *Package) objectFromProperties(props resource.PropertyMap, ty cty.Type) (cty.Value, error) {
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, attrType := range ty.AttributeTypes() {
		item, ok := props[resource.PropertyKey(p.PulumiName(name))]
		if !ok {
			attrs[name] = cty.NullVal(attrType)
			continue
		}
		v, err := p.fromProperty(item, attrType)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s: %w", name, err)
		}
		attrs[name] = v
	}
	return cty.ObjectVal(attrs), nil
}

func (p *Package) collectionFromProperty(items []resource.PropertyValue, ty cty.Type) (cty.Value, error) {
	elems := make([]cty.Value, 0, len(items))
	for i, item := range items {
		v, err := p.fromProperty(item, ty.ElementType())
		if err != nil {
			return cty.NilVal, fmt.Errorf("[%d]: %w", i, err)
		}
		elems = append(elems, v)
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

// dynamicValue converts a property value whose type the schema does not
// fix, keeping object keys as they are.
func dynamicValue(pv resource.PropertyValue) (cty.Value, error) {
	switch {
	case pv.IsComputed() || pv.IsOutput() && !pv.OutputValue().Known:
		return cty.DynamicVal, nil
	case pv.IsOutput():
		return dynamicValue(pv.OutputValue().Element)
	case pv.IsSecret():
		return dynamicValue(pv.SecretValue().Element)
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
		for _, item := range pv.ArrayValue() {
			v, err := dynamicValue(item)
			if err != nil {
				return cty.NilVal, err
			}
			elems = append(elems, v)
		}
		return cty.TupleVal(elems), nil
	case pv.IsObject():
		attrs := make(map[string]cty.Value)
		for key, item := range pv.ObjectValue() {
			v, err := dynamicValue(item)
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

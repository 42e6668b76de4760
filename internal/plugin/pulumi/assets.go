package pulumi

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/zclconf/go-cty/cty"
)

// Assets and archives are Pulumi's file-like values. In a .tf file they are
// objects: the user sets one of text, path or uri (archives have no text)
// and the provider's answer fills in hash, the SHA-256 of the contents.
var (
	assetType   = cty.Object(map[string]cty.Type{"hash": cty.String, "path": cty.String, "text": cty.String, "uri": cty.String})
	archiveType = cty.Object(map[string]cty.Type{"hash": cty.String, "path": cty.String, "uri": cty.String})
	// referenceType is a resource reference read where the schema does not
	// say a string: the referenced object's URN and, for custom resources,
	// its ID.
	referenceType = cty.Object(map[string]cty.Type{"urn": cty.String, "id": cty.String})
)

// The package schema's references to the built-in asset and archive types.
const (
	assetRef   = "pulumi.json#/Asset"
	archiveRef = "pulumi.json#/Archive"
)

// assetProperty sends an asset object; exactly one of text, path and uri
// must be set, as the SDK requires.
func assetProperty(v cty.Value) (resource.PropertyValue, error) {
	text, path, uri := optionalString(v, "text"), optionalString(v, "path"), optionalString(v, "uri")
	var a *asset.Asset
	var err error
	switch {
	case countSet(text, path, uri) != 1:
		return resource.PropertyValue{}, fmt.Errorf("an asset needs exactly one of text, path and uri")
	case text != "":
		a, err = asset.FromText(text)
	case path != "":
		a, err = asset.FromPath(path)
	default:
		a, err = asset.FromURI(uri)
	}
	if err != nil {
		return resource.PropertyValue{}, fmt.Errorf("invalid asset: %w", err)
	}
	return resource.NewAssetProperty(a), nil
}

// archiveProperty sends an archive object with one of path and uri.
func archiveProperty(v cty.Value) (resource.PropertyValue, error) {
	path, uri := optionalString(v, "path"), optionalString(v, "uri")
	var a *archive.Archive
	var err error
	switch {
	case countSet(path, uri) != 1:
		return resource.PropertyValue{}, fmt.Errorf("an archive needs exactly one of path and uri")
	case path != "":
		a, err = archive.FromPath(path)
	default:
		a, err = archive.FromURI(uri)
	}
	if err != nil {
		return resource.PropertyValue{}, fmt.Errorf("invalid archive: %w", err)
	}
	return resource.NewArchiveProperty(a), nil
}

func optionalString(obj cty.Value, name string) string {
	v := obj.GetAttr(name)
	if v.IsNull() || !v.IsKnown() {
		return ""
	}
	return v.AsString()
}

func countSet(values ...string) int {
	n := 0
	for _, v := range values {
		if v != "" {
			n++
		}
	}
	return n
}

// assetValue is an asset as an object of assetType.
func assetValue(a *asset.Asset) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"hash": stringOrNull(a.Hash), "path": stringOrNull(a.Path), "text": stringOrNull(a.Text), "uri": stringOrNull(a.URI),
	})
}

// archiveValue is an archive as an object of archiveType. Archives built
// from a map of assets keep only their hash: the map has no fixed type.
func archiveValue(a *archive.Archive) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"hash": stringOrNull(a.Hash), "path": stringOrNull(a.Path), "uri": stringOrNull(a.URI),
	})
}

// referenceValue is a resource reference: a string attribute gets the
// referenced object's ID (what a .tf file would pass), or its URN for a
// component, which has no ID; anything else gets both.
func referenceValue(ref resource.ResourceReference, ty cty.Type) cty.Value {
	id, hasID := ref.IDString()
	if ty == cty.String {
		if hasID && id != "" {
			return cty.StringVal(id)
		}
		return cty.StringVal(string(ref.URN))
	}
	idValue := cty.NullVal(cty.String)
	if hasID {
		idValue = cty.StringVal(id)
	}
	return cty.ObjectVal(map[string]cty.Value{"urn": cty.StringVal(string(ref.URN)), "id": idValue})
}

func stringOrNull(s string) cty.Value {
	if s == "" {
		return cty.NullVal(cty.String)
	}
	return cty.StringVal(s)
}

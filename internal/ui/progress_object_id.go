package ui

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/marks"
)

// An object is named in progress lines by the attribute most likely to
// identify it remotely, by the conventions of resource schemas: "id", else
// "name" (objectID); an object about to change may also be named by a
// "name" tag (objectIDOrName). A sensitive or ephemeral value is never
// shown: the object then goes unnamed.

// objectID returns the attribute and value that identify obj, or two empty
// strings.
func objectID(obj cty.Value) (key, value string) {
	if !isKnownObject(obj) {
		return "", ""
	}
	attrs := obj.Type().AttributeTypes()
	switch {
	case attrs["id"] == cty.String:
		return showableString(obj, "id")
	case attrs["name"] == cty.String:
		return showableString(obj, "name")
	}
	return "", ""
}

// objectNameOf returns the attribute and value that name obj for a person:
// "name", else a "name" or "Name" tag.
func objectNameOf(obj cty.Value) (key, value string) {
	if !isKnownObject(obj) {
		return "", ""
	}
	attrs := obj.Type().AttributeTypes()
	switch {
	case attrs["name"] == cty.String:
		return showableString(obj, "name")
	case attrs["tags"].IsMapType() && attrs["tags"].ElementType() == cty.String:
		tags := obj.GetAttr("tags")
		if tags.IsNull() || !tags.IsWhollyKnown() || unshowable(tags) {
			return "", ""
		}
		tags, _ = tags.Unmark()
		for _, key := range []string{"name", "Name"} {
			if tags.HasIndex(cty.StringVal(key)).True() {
				v := tags.Index(cty.StringVal(key))
				if unshowable(v) {
					return "", ""
				}
				v, _ = v.Unmark()
				if v.IsKnown() && !v.IsNull() {
					return "tags." + key, v.AsString()
				}
				return "", ""
			}
		}
	}
	return "", ""
}

// objectIDOrName is objectID, else objectNameOf.
func objectIDOrName(obj cty.Value) (key, value string) {
	if key, value = objectID(obj); key != "" {
		return key, value
	}
	return objectNameOf(obj)
}

func isKnownObject(obj cty.Value) bool {
	return obj != cty.NilVal && !obj.IsNull() && obj.IsKnown() && obj.Type().IsObjectType()
}

func unshowable(v cty.Value) bool {
	return v.HasMark(marks.Sensitive) || v.HasMark(marks.Ephemeral)
}

// showableString returns the string attribute name of obj when it can be
// shown.
func showableString(obj cty.Value, name string) (key, value string) {
	v := obj.GetAttr(name)
	if unshowable(v) {
		return "", ""
	}
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return "", ""
	}
	return name, v.AsString()
}

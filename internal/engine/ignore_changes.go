package engine

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/schema"
)

// ignoredPaths are the paths lifecycle.ignore_changes names, every
// attribute and block of the schema for ignore_changes = all; providers
// that take them (Pulumi's) get them with the plan and apply requests.
func ignoredPaths(m *config.ManagedResource, block *schema.Block) []cty.Path {
	if m == nil {
		return nil
	}
	var paths []cty.Path
	if m.IgnoreAllChanges {
		for name := range block.Attributes {
			paths = append(paths, cty.GetAttrPath(name))
		}
		for name := range block.BlockTypes {
			paths = append(paths, cty.GetAttrPath(name))
		}
		return paths
	}
	for _, t := range m.IgnoreChanges {
		if path, err := traversalPath(t); err == nil {
			paths = append(paths, path)
		}
	}
	return paths
}

// applyIgnoreChanges puts the prior values back into the configuration at
// the paths lifecycle.ignore_changes names (every attribute with
// ignore_changes = all), so no change is planned there.
func applyIgnoreChanges(m *config.ManagedResource, prior, cfg cty.Value) cty.Value {
	if m == nil || prior.IsNull() || !cfg.IsKnown() || cfg.IsNull() {
		return cfg
	}
	if m.IgnoreAllChanges {
		attrs := cfg.AsValueMap()
		for name := range attrs {
			attrs[name] = prior.GetAttr(name)
		}
		return cty.ObjectVal(attrs)
	}
	for _, t := range m.IgnoreChanges {
		path, err := traversalPath(t)
		if err != nil {
			continue
		}
		priorAt, err := path.Apply(prior)
		if err != nil {
			continue
		}
		cfg, _ = cty.Transform(cfg, func(p cty.Path, v cty.Value) (cty.Value, error) {
			if p.Equals(path) {
				return priorAt, nil
			}
			return v, nil
		})
	}
	return cfg
}

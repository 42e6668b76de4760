package engine

import (
	"github.com/terrane/terrane/internal/marks"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// withProviderSensitive marks the values at paths sensitive: the paths a
// provider reported secret in its answer beyond what its schema declares
// (providers.PlanResourceChangeResponse.SensitivePaths and its siblings;
// Pulumi providers return secrets at run time). It is applied after the
// engine's consistency checks, which compare unmarked values. Paths the
// value does not have match nothing and are ignored.
func withProviderSensitive(val cty.Value, paths []cty.Path) cty.Value {
	if len(paths) == 0 || val == cty.NilVal {
		return val
	}
	pvm := make([]cty.PathValueMarks, len(paths))
	for i, path := range paths {
		pvm[i] = cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks(marks.Sensitive)}
	}
	return val.MarkWithPaths(pvm)
}

// sensitivePathsOf lists the paths pathMarks make sensitive, for requests
// that carry unmarked values with their sensitive paths beside them.
func sensitivePathsOf(pathMarks []cty.PathValueMarks) []cty.Path {
	var paths []cty.Path
	for _, pvm := range pathMarks {
		if pvm.Marks.Has(marks.Sensitive) {
			paths = append(paths, pvm.Path)
		}
	}
	return paths
}

// sameSensitivePaths reports whether a and b are sensitive in the same
// places.
func sameSensitivePaths(a, b cty.Value) bool {
	_, aMarks := marks.UnmarkDeepWithPaths(a)
	_, bMarks := marks.UnmarkDeepWithPaths(b)
	aPaths, bPaths := sensitivePathsOf(aMarks), sensitivePathsOf(bMarks)
	if len(aPaths) != len(bPaths) {
		return false
	}
	for _, p := range aPaths {
		found := false
		for _, q := range bPaths {
			if p.Equals(q) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// markPlanned marks a provider's planned value with the configuration's
// marks, the paths the provider reported secret and, with schemaMarks, the
// paths its schema declares sensitive.
func markPlanned(block *schema.Block, planned *plannedObject, cfgMarks []cty.PathValueMarks, schemaMarks bool) cty.Value {
	val := marks.MarkWithPaths(planned.value, cfgMarks)
	if schemaMarks {
		val = marks.MarkWithPaths(val, sensitivePaths(block, planned.value))
	}
	return withProviderSensitive(val, planned.sensitive)
}

package moduletest

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// dependencies lists, for each run, the earlier runs it must wait for so
// that running the file's runs in parallel gives what running them in
// order gives:
//
//   - on one state, a run waits for the runs before it that apply, and a
//     run that applies waits for every run before it (their plans must
//     not see its changes);
//   - a run that refers to run.NAME (in its variables, the file's
//     variables, the file's provider blocks or its assertions) waits for
//     that run and for every run between them that applies to the same
//     state, since the last of those is the one run.NAME can still see.
//
// A reference this cannot analyse makes the run wait for every run
// before it.
func dependencies(f *File) [][]int {
	keys := make([]string, len(f.Runs))
	for i, run := range f.Runs {
		keys[i] = stateKey(run)
	}
	fileRefs, fileKnown := fileRunReferences(f)
	out := make([][]int, len(f.Runs))
	for i, run := range f.Runs {
		deps := map[int]bool{}
		for j := 0; j < i; j++ {
			other := f.Runs[j]
			if keys[j] == keys[i] && (run.Command == ApplyCommand || other.Command == ApplyCommand) {
				deps[j] = true
			}
		}
		refs := runReferences(run)
		if !fileKnown {
			for j := 0; j < i; j++ {
				deps[j] = true
			}
		}
		for name := range union(refs, fileRefs) {
			for j := 0; j < i; j++ {
				if f.Runs[j].Name != name {
					continue
				}
				deps[j] = true
				for k := j + 1; k < i; k++ {
					if keys[k] == keys[j] && f.Runs[k].Command == ApplyCommand {
						deps[k] = true
					}
				}
			}
		}
		for j := range deps {
			out[i] = append(out[i], j)
		}
	}
	return out
}

func union(a, b map[string]bool) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// runReferences are the run names a run's variables and assertions refer
// to.
func runReferences(run *Run) map[string]bool {
	refs := map[string]bool{}
	for _, expr := range run.Variables {
		addRunRefs(refs, expr.Variables())
	}
	for _, rule := range run.Asserts {
		addRunRefs(refs, rule.Condition.Variables())
		addRunRefs(refs, rule.ErrorMessage.Variables())
	}
	return refs
}

// fileRunReferences are the run names the file's variables and provider
// blocks refer to; false when a provider block cannot be analysed.
func fileRunReferences(f *File) (map[string]bool, bool) {
	refs := map[string]bool{}
	for _, expr := range f.Variables {
		addRunRefs(refs, expr.Variables())
	}
	known := true
	for _, p := range f.Providers {
		if p.ForEach != nil {
			addRunRefs(refs, p.ForEach.Variables())
		}
		traversals, ok := bodyTraversals(p.Config)
		known = known && ok
		addRunRefs(refs, traversals)
	}
	return refs, known
}

func addRunRefs(refs map[string]bool, traversals []hcl.Traversal) {
	for _, t := range traversals {
		if t.RootName() != "run" {
			continue
		}
		if name, ok := attrStep(t, 1); ok {
			refs[name] = true
		}
	}
}

// bodyTraversals are the references in a body written in native syntax;
// false for other bodies.
func bodyTraversals(body hcl.Body) ([]hcl.Traversal, bool) {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		attrs, hd := body.JustAttributes()
		if hd.HasErrors() {
			return nil, false
		}
		var out []hcl.Traversal
		for _, attr := range attrs {
			out = append(out, attr.Expr.Variables()...)
		}
		return out, true
	}
	var out []hcl.Traversal
	for _, attr := range b.Attributes {
		out = append(out, attr.Expr.Variables()...)
	}
	for _, block := range b.Blocks {
		inner, _ := bodyTraversals(block.Body)
		out = append(out, inner...)
	}
	return out, true
}

package e2etest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"strings"
	"testing"
)

// jsonDifference is one place where a document and its re-encoding through
// terraform-json's types disagree.
type jsonDifference struct {
	// Pointer is the place, as a JSON pointer ("/resource_changes/0/change").
	Pointer string
	// Kind is "lost" (in the original only), "added" (in the re-encoding
	// only) or "changed".
	Kind      string
	Original  any
	Reencoded any
}

func (d jsonDifference) String() string {
	switch d.Kind {
	case "lost":
		return fmt.Sprintf("%s: lost (was %s)", d.Pointer, compactJSON(d.Original))
	case "added":
		return fmt.Sprintf("%s: added (%s)", d.Pointer, compactJSON(d.Reencoded))
	default:
		return fmt.Sprintf("%s: %s became %s", d.Pointer, compactJSON(d.Original), compactJSON(d.Reencoded))
	}
}

func compactJSON(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	if len(raw) > 200 {
		return string(raw[:200]) + "…"
	}
	return string(raw)
}

// decodeJSONNumbers decodes a JSON document into plain Go data, numbers as
// json.Number so that nothing is rounded on the way.
func decodeJSONNumbers(t *testing.T, what string, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", what, err, raw)
	}
	return out
}

// diffJSON lists every place where reencoded differs from original.
func diffJSON(pointer string, original, reencoded any) []jsonDifference {
	switch orig := original.(type) {
	case map[string]any:
		re, ok := reencoded.(map[string]any)
		if !ok {
			break
		}
		var out []jsonDifference
		for _, key := range sortedNames(orig) {
			child := pointer + "/" + key
			reValue, found := re[key]
			if !found {
				out = append(out, jsonDifference{Pointer: child, Kind: "lost", Original: orig[key]})
				continue
			}
			out = append(out, diffJSON(child, orig[key], reValue)...)
		}
		for _, key := range sortedNames(re) {
			if _, found := orig[key]; !found {
				out = append(out, jsonDifference{Pointer: pointer + "/" + key, Kind: "added", Reencoded: re[key]})
			}
		}
		return out
	case []any:
		re, ok := reencoded.([]any)
		if !ok || len(re) != len(orig) {
			break
		}
		var out []jsonDifference
		for i := range orig {
			out = append(out, diffJSON(fmt.Sprintf("%s/%d", pointer, i), orig[i], re[i])...)
		}
		return out
	}
	if reflect.DeepEqual(original, reencoded) {
		return nil
	}
	return []jsonDifference{{Pointer: pointer, Kind: "changed", Original: original, Reencoded: reencoded}}
}

// knownLoss is a property Terrane writes, as Terraform does, that the
// terraform-json module has no field for. Pattern is a path.Match pattern
// over JSON pointers ("/resource_changes/*/change/x").
type knownLoss struct {
	Pattern string
	Why     string
	// Optional losses need not occur.
	Optional bool
	// NullOnly losses match only a null: terraform-json's field has
	// omitempty, so a null written on purpose reads back as absent.
	NullOnly bool
	// Rewritten marks a value terraform-json keeps but writes back in
	// another spelling, rather than one it drops.
	Rewritten bool
}

// assertRoundTrip decodes original into decoded (a pointer to a
// terraform-json type), encodes that again and requires the two documents
// to be equal as JSON. The only differences allowed are the known losses,
// each of which must actually occur (so the list cannot go stale), and
// properties terraform-json adds as null or empty where the original left
// them out.
func assertRoundTrip(t *testing.T, what string, original []byte, decoded any, losses ...knownLoss) {
	t.Helper()
	if err := json.Unmarshal(original, decoded); err != nil {
		t.Fatalf("%s does not decode into terraform-json's %T: %v\n%s", what, decoded, err, original)
	}
	reencoded, err := json.Marshal(decoded)
	if err != nil {
		t.Fatalf("%s: re-encoding %T: %v", what, decoded, err)
	}
	differences := diffJSON("", decodeJSONNumbers(t, what, original), decodeJSONNumbers(t, what+" re-encoded", reencoded))
	seen := map[string]bool{}
	var unexpected []string
	for _, d := range differences {
		if loss, ok := matchLoss(d, losses); ok {
			seen[loss.Pattern] = true
			continue
		}
		if d.Kind == "added" && isEmptyJSON(d.Reencoded) {
			continue
		}
		unexpected = append(unexpected, d.String())
	}
	if len(unexpected) > 0 {
		t.Errorf("%s does not survive a round trip through terraform-json's %T:\n  %s", what, decoded, strings.Join(unexpected, "\n  "))
	}
	for _, loss := range losses {
		if !seen[loss.Pattern] && !loss.Optional {
			t.Errorf("%s: expected terraform-json to drop %s (%s), but it did not: either the output no longer has it or terraform-json now keeps it", what, loss.Pattern, loss.Why)
		}
	}
}

func matchLoss(d jsonDifference, losses []knownLoss) (knownLoss, bool) {
	for _, loss := range losses {
		kind := "lost"
		if loss.Rewritten {
			kind = "changed"
		}
		if d.Kind != kind || (loss.NullOnly && d.Original != nil) {
			continue
		}
		if ok, _ := path.Match(loss.Pattern, d.Pointer); ok {
			return loss, true
		}
	}
	return knownLoss{}, false
}

// isEmptyJSON reports whether v is null, false, zero, "" or an empty
// array or object: what a Go field without omitempty writes for nothing.
func isEmptyJSON(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case string:
		return v == ""
	case json.Number:
		return v == "0"
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// jsonAt returns the value at a JSON pointer of a document decoded by
// decodeJSONNumbers, failing the test if there is none.
func jsonAt(t *testing.T, doc any, pointer string) any {
	t.Helper()
	current := doc
	for _, step := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		switch node := current.(type) {
		case map[string]any:
			next, ok := node[step]
			if !ok {
				t.Fatalf("no %s: %q has only %v", pointer, step, sortedNames(node))
			}
			current = next
		case []any:
			var index int
			if _, err := fmt.Sscan(step, &index); err != nil || index < 0 || index >= len(node) {
				t.Fatalf("no %s: step %q of an array of %d", pointer, step, len(node))
			}
			current = node[index]
		default:
			t.Fatalf("no %s: %q steps into %s", pointer, step, compactJSON(current))
		}
	}
	return current
}

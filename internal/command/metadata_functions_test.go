package command

import (
	"encoding/json"
	"os/exec"
	"reflect"
	"testing"
)

// TestMetadataFunctionsMatchesTerraform compares the signatures of the
// functions both tools have, descriptions aside (OpenTofu writes its own
// prose; Terrane gives the function library's). The document is OpenTofu's
// format 1.0; map and list, which only say they were removed, are left
// out, as OpenTofu leaves them out.
func TestMetadataFunctionsMatchesTerraform(t *testing.T) {
	terraform := requireTerraform(t)
	cmd := exec.Command(terraform, "metadata", "functions", "-json")
	cmd.Env = terraformEnv(t)
	wantText, err := cmd.Output()
	if err != nil {
		t.Fatalf("terraform metadata functions: %v", err)
	}
	gotText, errText, code := runCommand(t, "metadata", "functions", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	type doc struct {
		FormatVersion string                    `json:"format_version"`
		Signatures    map[string]map[string]any `json:"function_signatures"`
	}
	var got, want doc
	if err := json.Unmarshal([]byte(gotText), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(wantText, &want); err != nil {
		t.Fatal(err)
	}
	if got.FormatVersion != "1.0" || got.Signatures["map"] != nil || got.Signatures["core::map"] != nil || got.Signatures["core::abs"] == nil {
		t.Fatalf("format %q; map %v; core::abs %v", got.FormatVersion, got.Signatures["map"], got.Signatures["core::abs"])
	}
	// Where the function libraries themselves differ (return types cty
	// infers differently, a parameter that accepts null).
	differentImplementation := map[string]bool{
		"contains": true, "format": true, "formatlist": true, "templatestring": true,
	}
	withoutDescriptions := func(sig map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range sig {
			if k == "description" {
				continue
			}
			if params, ok := v.([]any); ok && k == "parameters" {
				for _, p := range params {
					delete(p.(map[string]any), "description")
				}
			}
			if vp, ok := v.(map[string]any); ok && k == "variadic_parameter" {
				delete(vp, "description")
			}
			out[k] = v
		}
		return out
	}
	compared := 0
	for name, wantSig := range want.Signatures {
		gotSig, ok := got.Signatures[name]
		base := name
		if len(name) > 6 && name[:6] == "core::" {
			base = name[6:]
		}
		if !ok || differentImplementation[base] {
			continue
		}
		compared++
		if g, w := withoutDescriptions(gotSig), withoutDescriptions(wantSig); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: terrane %v, terraform %v", name, g, w)
		}
	}
	if compared < 200 {
		t.Errorf("only %d functions compared", compared)
	}
}

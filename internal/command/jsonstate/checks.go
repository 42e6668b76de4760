package jsonstate

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// CheckResult is the outcome of the checks one configuration object
// declares (a resource's conditions, an output's preconditions, a check
// block, a variable's validations), with the outcome of each instance.
type CheckResult struct {
	Address   map[string]any  `json:"address"`
	Status    string          `json:"status"`
	Instances []CheckInstance `json:"instances,omitempty"`
}

// CheckInstance is the outcome of the checks of one instance.
type CheckInstance struct {
	Address  map[string]any `json:"address"`
	Status   string         `json:"status"`
	Problems []CheckProblem `json:"problems,omitempty"`
}

// CheckProblem is one failed condition's error message.
type CheckProblem struct {
	Message string `json:"message"`
}

// ChecksFromPlan renders a plan's check results, ordered by address.
func ChecksFromPlan(results []plans.CheckResult) ([]CheckResult, error) {
	if len(results) == 0 {
		return nil, nil
	}
	out := make([]CheckResult, 0, len(results))
	for _, result := range results {
		rendered, err := newCheckResult(checkKindNames[result.Kind], result.ConfigAddr, result.Status.String())
		if err != nil {
			return nil, err
		}
		for _, object := range result.Objects {
			instance, err := newCheckInstance(object.ObjectAddr, object.Status.String(), object.FailureMessages)
			if err != nil {
				return nil, err
			}
			rendered.Instances = append(rendered.Instances, instance)
		}
		out = append(out, sortedInstances(rendered))
	}
	return sortedChecks(out), nil
}

// checkKindNames spell the checkable kinds as the JSON "kind" property does.
var checkKindNames = map[plans.CheckableKind]string{
	plans.CheckableResource:      "resource",
	plans.CheckableOutputValue:   "output_value",
	plans.CheckableCheck:         "check",
	plans.CheckableInputVariable: "var",
}

// stateCheckKindNames map a state v4 file's "object_kind" to the JSON kind.
var stateCheckKindNames = map[string]string{
	"resource": "resource",
	"output":   "output_value",
	"check":    "check",
	"var":      "var",
}

// ChecksFromStateJSON renders the check results a state keeps as a state
// v4 "check_results" array; nil or "null" means none.
func ChecksFromStateJSON(raw []byte) ([]CheckResult, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var results []states.CheckResultJSON
	if err := json.Unmarshal(raw, &results); err != nil {
		return nil, fmt.Errorf("the state's check results are not valid: %w", err)
	}
	if len(results) == 0 {
		return nil, nil
	}
	out := make([]CheckResult, 0, len(results))
	for _, result := range results {
		kind, ok := stateCheckKindNames[result.ObjectKind]
		if !ok {
			return nil, fmt.Errorf("the state's check result for %s has unknown kind %q", result.ConfigAddr, result.ObjectKind)
		}
		rendered, err := newCheckResult(kind, result.ConfigAddr, result.Status)
		if err != nil {
			return nil, err
		}
		for _, object := range result.Objects {
			instance, err := newCheckInstance(object.ObjectAddr, object.Status, object.FailureMessages)
			if err != nil {
				return nil, err
			}
			rendered.Instances = append(rendered.Instances, instance)
		}
		out = append(out, sortedInstances(rendered))
	}
	return sortedChecks(out), nil
}

func newCheckResult(kind, configAddr, status string) (CheckResult, error) {
	if kind == "" {
		return CheckResult{}, fmt.Errorf("check result for %s has no kind", configAddr)
	}
	module, rest, err := splitModulePrefix(configAddr)
	if err != nil {
		return CheckResult{}, err
	}
	address := map[string]any{"kind": kind, "to_display": configAddr}
	if !module.IsRoot() {
		address["module"] = module.Module().String()
	}
	names := traversalNames(rest)
	switch {
	case kind == "resource":
		resourceAddr, diags := addrs.ParseAbsResourceInstanceStr(configAddr)
		if diags.HasErrors() {
			return CheckResult{}, fmt.Errorf("check result address %q: %s", configAddr, diags.Error())
		}
		address["mode"] = ResourceMode(resourceAddr.Resource.Resource.Mode)
		address["type"] = resourceAddr.Resource.Resource.Type
		address["name"] = resourceAddr.Resource.Resource.Name
	case len(names) == 2:
		address["name"] = names[1]
	default:
		return CheckResult{}, fmt.Errorf("check result address %q does not name a %s", configAddr, kind)
	}
	return CheckResult{Address: address, Status: status}, nil
}

func newCheckInstance(objectAddr, status string, messages []string) (CheckInstance, error) {
	module, rest, err := splitModulePrefix(objectAddr)
	if err != nil {
		return CheckInstance{}, err
	}
	address := map[string]any{"to_display": objectAddr}
	if !module.IsRoot() {
		address["module"] = module.String()
	}
	if len(rest) > 0 {
		if index, ok := rest[len(rest)-1].(hcl.TraverseIndex); ok {
			key, err := addrs.ParseInstanceKey(index.Key)
			if err != nil {
				return CheckInstance{}, fmt.Errorf("check result address %q: %w", objectAddr, err)
			}
			raw, err := InstanceIndex(key)
			if err != nil {
				return CheckInstance{}, fmt.Errorf("check result address %q: %w", objectAddr, err)
			}
			address["instance_key"] = raw
		}
	}
	instance := CheckInstance{Address: address, Status: status}
	sorted := append([]string(nil), messages...)
	sort.Strings(sorted)
	for _, message := range sorted {
		instance.Problems = append(instance.Problems, CheckProblem{Message: message})
	}
	return instance, nil
}

// splitModulePrefix splits an address into the module instance it starts
// with (module.a["x"].module.b) and the traversal after it.
func splitModulePrefix(addr string) (addrs.ModuleInstance, hcl.Traversal, error) {
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(addr), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, nil, fmt.Errorf("check result address %q is not valid: %s", addr, diags.Error())
	}
	end := 0
	for end+1 < len(traversal) && stepName(traversal[end]) == "module" {
		end += 2
		if end < len(traversal) {
			if _, isIndex := traversal[end].(hcl.TraverseIndex); isIndex {
				end++
			}
		}
	}
	if end == 0 {
		return addrs.RootModuleInstance, traversal, nil
	}
	module, moduleDiags := addrs.ParseModuleInstance(traversal[:end])
	if moduleDiags.HasErrors() {
		return nil, nil, fmt.Errorf("check result address %q: %s", addr, moduleDiags.Error())
	}
	rest := traversal[end:]
	if len(rest) > 0 {
		// The rest must start as an absolute traversal to be read alone.
		rest = append(hcl.Traversal{hcl.TraverseRoot{Name: stepName(rest[0])}}, rest[1:]...)
	}
	return module, rest, nil
}

func stepName(step hcl.Traverser) string {
	switch step := step.(type) {
	case hcl.TraverseRoot:
		return step.Name
	case hcl.TraverseAttr:
		return step.Name
	}
	return ""
}

func traversalNames(traversal hcl.Traversal) []string {
	var names []string
	for _, step := range traversal {
		if name := stepName(step); name != "" {
			names = append(names, name)
		}
	}
	return names
}

func sortedInstances(result CheckResult) CheckResult {
	sort.SliceStable(result.Instances, func(i, j int) bool {
		return result.Instances[i].Address["to_display"].(string) < result.Instances[j].Address["to_display"].(string)
	})
	return result
}

func sortedChecks(results []CheckResult) []CheckResult {
	sort.SliceStable(results, func(i, j int) bool {
		return results[i].Address["to_display"].(string) < results[j].Address["to_display"].(string)
	})
	return results
}

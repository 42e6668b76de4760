// Package recordview renders Terrane's records for people — `terrane
// watch`, `terrane status` and the web view — with every sensitive value
// replaced and opaque bytes (private data, msgpack) left out.
package recordview

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// SensitivePlaceholder replaces every redacted value.
const SensitivePlaceholder = "(sensitive value)"

// Data renders a record's data for display with sensitive values
// replaced; opaque bytes (private data, msgpack) are left out entirely,
// since they may hold secrets no one can see are there.
func Data(res *pbresource.Resource) any {
	switch {
	case res.GetData() == nil:
		return nil
	case res.GetData().MessageIs(&recordsv1.ResourceInstance{}):
		var inst recordsv1.ResourceInstance
		if res.GetData().UnmarshalTo(&inst) != nil {
			return nil
		}
		return instanceView(&inst)
	case res.GetData().MessageIs(&recordsv1.Output{}):
		var output recordsv1.Output
		if res.GetData().UnmarshalTo(&output) != nil {
			return nil
		}
		view := map[string]any{"sensitive": output.GetSensitive(), "type": rawJSON(output.GetTypeJson())}
		if output.GetSensitive() {
			view["value"] = SensitivePlaceholder
		} else {
			view["value"] = rawJSON(output.GetValueJson())
		}
		return view
	case res.GetData().MessageIs(&recordsv1.Encrypted{}):
		// A viewer holds no keys: an encrypted record shows only how it
		// was encrypted, which is no secret.
		var stored recordsv1.Encrypted
		if res.GetData().UnmarshalTo(&stored) != nil {
			return nil
		}
		return map[string]any{"encrypted": true, "method": stored.GetMethod(), "key_providers": slices.Sorted(maps.Keys(stored.GetKeyProviderMeta()))}
	default:
		return map[string]any{"@type": res.GetData().GetTypeUrl()}
	}
}

func instanceView(inst *recordsv1.ResourceInstance) map[string]any {
	view := map[string]any{"mode": inst.GetMode().String(), "type": inst.GetType(), "name": inst.GetName(), "provider": inst.GetProvider()}
	if inst.GetCurrent() != nil {
		view["current"] = objectView(inst.GetCurrent())
	}
	if len(inst.GetDeposed()) > 0 {
		deposed := map[string]any{}
		for key, object := range inst.GetDeposed() {
			deposed[key] = objectView(object)
		}
		view["deposed"] = deposed
	}
	if intent := inst.GetIntent(); intent != nil {
		view["intent"] = map[string]any{"operation": intent.GetOperation().String(), "run_id": intent.GetRunId(),
			"started_at": intent.GetStartedAt().AsTime(), "deposed_key": intent.GetDeposedKey(), "holder": intent.GetHolder()}
	}
	return view
}

func objectView(object *recordsv1.ObjectState) map[string]any {
	view := map[string]any{"status": object.GetStatus().String(), "schema_version": object.GetSchemaVersion()}
	var attributes any
	if err := json.Unmarshal(object.GetAttributesJson(), &attributes); err == nil {
		for _, path := range object.GetSensitivePaths() {
			attributes = redactPath(attributes, path.GetSteps())
		}
		view["attributes"] = attributes
	}
	if len(object.GetDependencies()) > 0 {
		view["dependencies"] = object.GetDependencies()
	}
	if object.GetPulumi() != nil {
		view["pulumi_urn"] = object.GetPulumi().GetUrn()
	}
	return view
}

// redactPath returns value with the part addressed by steps replaced by the
// placeholder. A path that does not match the value redacts nothing more.
func redactPath(value any, steps []*recordsv1.AttributePath_Step) any {
	if len(steps) == 0 {
		return SensitivePlaceholder
	}
	step := steps[0]
	switch v := value.(type) {
	case map[string]any:
		key := step.GetAttributeName()
		if key == "" {
			key = step.GetElementKeyString()
		}
		if inner, ok := v[key]; ok {
			v[key] = redactPath(inner, steps[1:])
		}
	case []any:
		if _, isInt := step.GetSelector().(*recordsv1.AttributePath_Step_ElementKeyInt); isInt {
			if i := step.GetElementKeyInt(); i >= 0 && int(i) < len(v) {
				v[i] = redactPath(v[i], steps[1:])
			}
		}
	}
	return value
}

func rawJSON(data []byte) any {
	if len(data) == 0 || !json.Valid(data) {
		return nil
	}
	return json.RawMessage(data)
}

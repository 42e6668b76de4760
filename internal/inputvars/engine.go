package inputvars

import "github.com/terrane/terrane/internal/engine"

// Engine is where the value came from, in the engine's terms.
func (s SourceType) Engine() engine.ValueSourceType {
	switch s {
	case SourceEnv:
		return engine.ValueFromEnvVar
	case SourceAutoFile:
		return engine.ValueFromAutoFile
	case SourceNamedFile:
		return engine.ValueFromNamedFile
	case SourceCLI:
		return engine.ValueFromCLIArg
	}
	return engine.ValueFromUnknown
}

// Engine is the value as the engine takes it.
func (v *Value) Engine() *engine.InputValue {
	return &engine.InputValue{Value: v.Value, SourceType: v.Source.Engine(), SourceRange: v.Range}
}

// Engine are the values given, as the engine takes them.
func (v *Values) Engine() engine.InputValues {
	out := make(engine.InputValues, len(v.ByName))
	for name, given := range v.ByName {
		out[name] = given.Engine()
	}
	return out
}

// EngineSource is where the value came from, as the engine names sources
// in its messages.
func (v *RawValue) EngineSource() engine.ValueSourceType {
	return v.Source.Engine()
}

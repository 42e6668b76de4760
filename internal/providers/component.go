package providers

// ComponentChild is one resource a component resource created (a Pulumi
// component, built by the provider's Construct). The engine records the
// children beside the component so users see what it consists of; the
// provider's private data, not these, is what later calls work from.
type ComponentChild struct {
	// TypeToken is the child's type in the provider's own terms
	// ("pkg:module:Type").
	TypeToken string
	Name      string
	// URN is the child's unique name within the component.
	URN string
	// ID is the ID the provider assigned to the child's object.
	ID string
	// OutputsJSON is the child's outputs as JSON, with secrets redacted.
	OutputsJSON []byte
}

package schema

// NoneRequired is a deep copy of the block in which nothing is required:
// required attributes are optional and nested block types have no minimum
// or maximum number of blocks. It decodes configuration that may be
// incomplete, as a provider's configuration is when it comes partly from
// the environment, or a data source's when it is only partly known.
func (b *Block) NoneRequired() *Block {
	if b == nil {
		return nil
	}
	out := *b
	if b.Attributes != nil {
		out.Attributes = make(map[string]*Attribute, len(b.Attributes))
		for name, attr := range b.Attributes {
			if attr == nil {
				continue
			}
			optional := *attr
			if optional.Required {
				optional.Required = false
				optional.Optional = true
			}
			out.Attributes[name] = &optional
		}
	}
	if b.BlockTypes != nil {
		out.BlockTypes = make(map[string]*NestedBlock, len(b.BlockTypes))
		for name, nested := range b.BlockTypes {
			if nested == nil {
				continue
			}
			relaxed := *nested
			relaxed.Block = *nested.Block.NoneRequired()
			relaxed.MinItems = 0
			relaxed.MaxItems = 0
			out.BlockTypes[name] = &relaxed
		}
	}
	return &out
}

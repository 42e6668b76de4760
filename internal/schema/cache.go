package schema

import (
	"runtime"
	"sync"
	"weak"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// derived holds what is computed from a block schema and asked for once per
// provider call: its implied type and its decoder spec. A large provider's
// schemas are deep, and the engine asks for these for every resource
// instance, so each is computed once per Block.
//
// This is why a Block must not change once it is in use: the cache would go
// on answering for the schema as it was.
type derived struct {
	typeOnce sync.Once
	typ      cty.Type

	specOnce sync.Once
	spec     hcldec.Spec
}

func (d *derived) impliedType(b *Block) cty.Type {
	d.typeOnce.Do(func() { d.typ = b.specType().WithoutOptionalAttributesDeep() })
	return d.typ
}

func (d *derived) decoderSpec(b *Block) hcldec.Spec {
	d.specOnce.Do(func() { d.spec = b.decoderSpec() })
	return d.spec
}

// derivedCache maps a Block, held weakly so the cache does not keep schemas
// alive, to what has been derived from it. Entries leave when their Block is
// collected.
var derivedCache sync.Map // weak.Pointer[Block] → *derived

func derivedOf(b *Block) *derived {
	key := weak.Make(b)
	if d, ok := derivedCache.Load(key); ok {
		return d.(*derived)
	}
	d, loaded := derivedCache.LoadOrStore(key, &derived{})
	if !loaded {
		runtime.AddCleanup(b, func(key weak.Pointer[Block]) { derivedCache.Delete(key) }, key)
	}
	return d.(*derived)
}

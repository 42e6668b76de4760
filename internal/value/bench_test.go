package value

import (
	"testing"

	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

func BenchmarkDecodeMsgpack(b *testing.B) {
	encoded, err := Encode(richObjectValue(), richObjectType)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Decode", func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeMsgpack(encoded.Msgpack, richObjectType); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("shape check alone", func(b *testing.B) {
		for b.Loop() {
			if err := checkMsgpackShape(encoded.Msgpack); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cty alone", func(b *testing.B) {
		for b.Loop() {
			if _, err := ctymsgpack.Unmarshal(encoded.Msgpack, richObjectType); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package engine

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// TestWholeResourceValueBuiltOnceFinished checks that a whole resource's
// value is rebuilt on every read while its vertex runs (its instances are
// still changing) and built once after, whatever the number of readers: a
// for_each of n instances each reading base[each.value] must not build
// base's n-element value n times.
func TestWholeResourceValueBuiltOnceFinished(t *testing.T) {
	values := newWalkValues()
	base := addrs.AbsResource{Module: addrs.RootModuleInstance, Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "tpsdk_widget", Name: "base"}}
	builds := 0
	build := func() cty.Value {
		builds++
		return cty.TupleVal([]cty.Value{cty.NumberIntVal(int64(builds))})
	}

	values.resourceValue(base, build)
	values.resourceValue(base, build)
	if builds != 2 {
		t.Fatalf("built %d times while the resource was running, want every read (2)", builds)
	}

	values.finishResource(base.Config().String())
	first := values.resourceValue(base, build)
	for range 100 {
		if got := values.resourceValue(base, build); !got.RawEquals(first) {
			t.Fatalf("a finished resource's value changed between reads: %#v then %#v", first, got)
		}
	}
	if builds != 3 {
		t.Errorf("built %d times in all, want once more after the resource finished (3)", builds)
	}
}

package plans

import (
	"cmp"
	"slices"
)

// SortResourceInstanceChanges orders changes by instance address string,
// then deposed key, keeping the order of equal ones. Each address is
// formatted once: formatting both sides of every comparison made
// n·log n strings, which at 50,000 instances were the largest thing a
// no-change plan held when the collector looked.
func SortResourceInstanceChanges(changes []*ResourceInstanceChangeSrc) {
	type keyed struct {
		addr   string
		change *ResourceInstanceChangeSrc
	}
	keys := make([]keyed, len(changes))
	for i, c := range changes {
		keys[i] = keyed{c.Addr.String(), c}
	}
	slices.SortStableFunc(keys, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.addr, b.addr), cmp.Compare(a.change.DeposedKey, b.change.DeposedKey))
	})
	for i, k := range keys {
		changes[i] = k.change
	}
}

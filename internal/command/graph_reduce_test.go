package command

import (
	"slices"
	"strings"
	"testing"
)

// TestDrawingReduce keeps only the edges no longer path replaces.
func TestDrawingReduce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		edges [][2]string
		want  [][2]string
	}{
		{"chain with a shortcut", [][2]string{{"a", "b"}, {"b", "c"}, {"a", "c"}}, [][2]string{{"a", "b"}, {"b", "c"}}},
		{"diamond with a shortcut", [][2]string{{"a", "b"}, {"a", "c"}, {"b", "d"}, {"c", "d"}, {"a", "d"}},
			[][2]string{{"a", "b"}, {"a", "c"}, {"b", "d"}, {"c", "d"}}},
		{"two roots sharing a leaf", [][2]string{{"a", "c"}, {"b", "c"}}, [][2]string{{"a", "c"}, {"b", "c"}}},
		{"long shortcut", [][2]string{{"a", "b"}, {"b", "c"}, {"c", "d"}, {"d", "e"}, {"a", "e"}, {"b", "e"}},
			[][2]string{{"a", "b"}, {"b", "c"}, {"c", "d"}, {"d", "e"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDrawing()
			for _, e := range tc.edges {
				d.connect(e[0], e[1])
			}
			d.reduce()
			var got [][2]string
			for from, deps := range d.edges {
				for to := range deps {
					got = append(got, [2]string{from, to})
				}
			}
			slices.SortFunc(got, func(a, b [2]string) int {
				if a[0] != b[0] {
					return strings.Compare(a[0], b[0])
				}
				return strings.Compare(a[1], b[1])
			})
			if !slices.Equal(got, tc.want) {
				t.Errorf("reduced edges %v, want %v", got, tc.want)
			}
		})
	}
}

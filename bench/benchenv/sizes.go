package benchenv

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// Sizes is the comma-separated list of instance counts in the environment
// variable name, or defaults when it is unset. A field that is not a count
// of at least 2 fails the benchmark, naming it.
func Sizes(b testing.TB, name string, defaults ...int) []int {
	spec := os.Getenv(name)
	if spec == "" {
		return defaults
	}
	var sizes []int
	for _, field := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n < 2 {
			b.Fatalf("%s=%q: %q is not an instance count of at least 2", name, spec, field)
		}
		sizes = append(sizes, n)
	}
	return sizes
}

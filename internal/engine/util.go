package engine

import (
	"errors"
	"sort"

	"github.com/terrane/terrane/internal/marks"
)

var sensitiveMark = marks.Sensitive

func sortStrings(s []string) { sort.Strings(s) }

func errorsAs(err error, target any) bool { return errors.As(err, target) }

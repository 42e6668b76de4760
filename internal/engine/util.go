package engine

import (
	"errors"
	"os"
	"sort"

	"github.com/terrane/terrane/internal/lang/marks"
)

var sensitiveMark = marks.Sensitive

func sortStrings(s []string) { sort.Strings(s) }

func errorsAs(err error, target any) bool { return errors.As(err, target) }

var (
	osHostname = os.Hostname
	osGetpid   = os.Getpid
)

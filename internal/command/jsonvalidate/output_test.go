package jsonvalidate

import (
	"testing"

	"github.com/terrane/terrane/internal/diags"
)

func TestNewCountsAndValidity(t *testing.T) {
	out := New(diags.Diagnostics{diags.Warnf("w", "d"), diags.Errorf("e", "d"), diags.Errorf("e2", "d")}, nil)
	if out.FormatVersion != "1.0" || out.Valid || out.ErrorCount != 2 || out.WarningCount != 1 || len(out.Diagnostics) != 3 {
		t.Errorf("got %+v", out)
	}
	if out := New(nil, nil); !out.Valid || out.Diagnostics == nil {
		t.Errorf("an empty result must be valid with an empty list: %+v", out)
	}
}

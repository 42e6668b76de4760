package discovery

import (
	"errors"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"
)

func TestSelectVersion(t *testing.T) {
	available := versions.List{
		versions.MustParseVersion("1.0.0"),
		versions.MustParseVersion("1.2.0"),
		versions.MustParseVersion("1.2.5"),
		versions.MustParseVersion("2.0.0-beta1"),
		versions.MustParseVersion("1.3.0"),
	}
	tests := []struct {
		constraint, want, wantErr string
	}{
		{constraint: "", want: "1.3.0"},
		{constraint: ">= 1.0", want: "1.3.0"},
		{constraint: "~> 1.2.0", want: "1.2.5"},
		{constraint: "~> 1.2", want: "1.3.0"},
		{constraint: ">= 1.0, != 1.3.0", want: "1.2.5"},
		{constraint: "1.2.0", want: "1.2.0"},
		{constraint: "2.0.0-beta1", want: "2.0.0-beta1"},
		{constraint: ">= 2.0.0-beta1", wantErr: `no available version meets the constraint ">= 2.0.0-beta1"; available versions: 1.0.0, 1.2.0, 1.2.5, 1.3.0, 2.0.0-beta1`},
		{constraint: "~> 3.0", wantErr: `constraint "~> 3.0"`},
	}
	for _, test := range tests {
		t.Run(test.constraint, func(t *testing.T) {
			spec, err := ParseConstraints(test.constraint)
			if err != nil {
				t.Fatal(err)
			}
			got, err := SelectVersion(available, spec)
			if test.wantErr != "" {
				var noMatch *ErrNoMatchingVersion
				if !errors.As(err, &noMatch) || !strings.Contains(err.Error(), test.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, test.wantErr)
				}
				return
			}
			if err != nil || got.String() != test.want {
				t.Errorf("SelectVersion(%q) = %s, %v; want %s", test.constraint, got, err, test.want)
			}
		})
	}
}

func TestParseConstraintsRejectsGarbage(t *testing.T) {
	if _, err := ParseConstraints(">= banana"); err == nil || !strings.Contains(err.Error(), "banana") {
		t.Errorf("error = %v, want one naming the constraint", err)
	}
}

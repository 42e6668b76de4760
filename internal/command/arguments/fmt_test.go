package arguments

import "testing"

func TestParseFmt(t *testing.T) {
	t.Parallel()
	runParseCases(t, []parseCase{
		{name: "defaults", parse: parseWith(ParseFmt), want: &Fmt{List: true, Write: true, Paths: []string{"."}}},
		{name: "options", parse: parseWith(ParseFmt, "-list=false", "-write=false", "-diff", "-check", "-recursive", "-no-color", "a.tf", "dir"),
			want: &Fmt{View: View{NoColor: true}, Diff: true, Check: true, Recursive: true, Paths: []string{"a.tf", "dir"}}},
		{name: "stdin", parse: parseWith(ParseFmt, "-diff", "-"), want: &Fmt{Diff: true, Stdin: true}},
		{name: "dash among paths", parse: parseWith(ParseFmt, "-", "a.tf"), want: &Fmt{List: true, Write: true, Paths: []string{"-", "a.tf"}}},
		{name: "bad flag", parse: parseWith(ParseFmt, "-bogus"), diags: []string{bogusFlag}},
		{name: "help refused", parse: parseWith(ParseFmt, "--h"), diags: []string{helpRefused}},
	})
}

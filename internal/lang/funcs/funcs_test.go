package funcs

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/marks"
)

// functionCase is one expression as a user would write it, with either the
// value OpenTofu documents for it or a fragment of the error it reports.
type functionCase struct {
	expr    string
	want    cty.Value
	wantErr string
}

var fixedPlanTime = time.Date(2024, 3, 5, 10, 11, 12, 0, time.UTC)

func evalExpr(t *testing.T, expr string, vars map[string]cty.Value) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	parsed, diags := hclsyntax.ParseExpression([]byte(expr), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse %s: %s", expr, diags.Error())
	}
	ctx := &hcl.EvalContext{
		Functions: Table(Options{BaseDir: ".", PlanTimestamp: fixedPlanTime}),
		Variables: vars,
	}
	return parsed.Value(ctx)
}

func runCases(t *testing.T, cases []functionCase) {
	t.Helper()
	vars := map[string]cty.Value{
		"secret":  cty.StringVal("hunter2").Mark(marks.Sensitive),
		"unknown": cty.UnknownVal(cty.String),
		"token":   cty.StringVal("tok").Mark(marks.Ephemeral),
		"both":    cty.StringVal("s3cr3t").WithMarks(cty.NewValueMarks(marks.Ephemeral, marks.Sensitive)),
	}
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			got, diags := evalExpr(t, c.expr, vars)
			if c.wantErr != "" {
				if !diags.HasErrors() {
					t.Fatalf("got %#v, want error containing %q", got, c.wantErr)
				}
				if !strings.Contains(diags.Error(), c.wantErr) {
					t.Fatalf("error %q does not contain %q", diags.Error(), c.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("unexpected error: %s", diags.Error())
			}
			if !got.RawEquals(c.want) {
				t.Fatalf("got  %#v\nwant %#v", got, c.want)
			}
		})
	}
}

func strs(ss ...string) []cty.Value {
	out := make([]cty.Value, len(ss))
	for i, s := range ss {
		out[i] = cty.StringVal(s)
	}
	return out
}

func TestNumericFunctions(t *testing.T) {
	runCases(t, []functionCase{
		{expr: `abs(-12.4)`, want: cty.NumberFloatVal(12.4)},
		{expr: `ceil(5.1)`, want: cty.NumberIntVal(6)},
		{expr: `floor(4.9)`, want: cty.NumberIntVal(4)},
		{expr: `log(16, 2)`, want: cty.NumberIntVal(4)},
		{expr: `log(0, 2)`, want: cty.NegativeInfinity},
		{expr: `log(-1, 2)`, wantErr: "the logarithm of -1 to base 2 is not a real number"},
		{expr: `log(1, 1)`, wantErr: "the logarithm of 1 to base 1 is not a real number"},
		{expr: `log(8, -2)`, wantErr: "the logarithm of 8 to base -2 is not a real number"},
		{expr: `max(12, 54, 3)`, want: cty.NumberIntVal(54)},
		{expr: `min([12, 54, 3]...)`, want: cty.NumberIntVal(3)},
		{expr: `parseint("FF", 16)`, want: cty.NumberIntVal(255)},
		{expr: `parseint("-10", 16)`, want: cty.NumberIntVal(-16)},
		{expr: `pow(3, 2)`, want: cty.NumberIntVal(9)},
		{expr: `pow(0, -1)`, want: cty.PositiveInfinity},
		{expr: `pow(-8, 2)`, want: cty.NumberIntVal(64)},
		{expr: `pow(-1, 0.5)`, wantErr: "-1 to the power of 0.5 is not a real number"},
		{expr: `signum(-13)`, want: cty.NumberIntVal(-1)},
		{expr: `sum([10, 13, 6, 4.5])`, want: cty.NumberFloatVal(33.5)},
		{expr: `sum([])`, wantErr: "cannot sum an empty list"},
		{expr: `sum(["a"])`, wantErr: "number values"},
	})
}

func TestStringFunctions(t *testing.T) {
	runCases(t, []functionCase{
		{expr: `chomp("hello\n\n")`, want: cty.StringVal("hello")},
		{expr: `endswith("hello world", "world")`, want: cty.True},
		{expr: `startswith("hello world", "hello")`, want: cty.True},
		{expr: `startswith("hello world", "world")`, want: cty.False},
		{expr: `startswith("${unknown}-x", "ab")`, want: cty.UnknownVal(cty.Bool).RefineNotNull()},
		{expr: `startswith("abc${unknown}", "ab")`, want: cty.True},
		{expr: `startswith("xbc${unknown}", "ab")`, want: cty.False},
		{expr: `format("Hello, %s!", "Ander")`, want: cty.StringVal("Hello, Ander!")},
		{expr: `format("There are %d lights", 4)`, want: cty.StringVal("There are 4 lights")},
		{expr: `formatlist("Hello, %s!", ["Valentina", "Ander"])`, want: cty.ListVal(strs("Hello, Valentina!", "Hello, Ander!"))},
		{expr: `indent(2, "a\nb")`, want: cty.StringVal("a\n  b")},
		{expr: `join(", ", ["foo", "bar", "baz"])`, want: cty.StringVal("foo, bar, baz")},
		{expr: `lower("HELLO")`, want: cty.StringVal("hello")},
		{expr: `regex("[a-z]+", "53453453.345345aaabbbccc23454")`, want: cty.StringVal("aaabbbccc")},
		{expr: `regexall("[a-z]+", "1234abcd5678efgh9")`, want: cty.ListVal(strs("abcd", "efgh"))},
		{expr: `replace("1 + 2 + 3", "+", "-")`, want: cty.StringVal("1 - 2 - 3")},
		{expr: `replace("hello world", "/w.*d/", "everybody")`, want: cty.StringVal("hello everybody")},
		{expr: `replace("a-b", "/(\\w)-(\\w)/", "$2-$1")`, want: cty.StringVal("b-a")},
		{expr: `split(",", "foo,bar,baz")`, want: cty.ListVal(strs("foo", "bar", "baz"))},
		{expr: `strcontains("hello world", "wor")`, want: cty.True},
		{expr: `strrev("hello")`, want: cty.StringVal("olleh")},
		{expr: `substr("hello world", 1, 4)`, want: cty.StringVal("ello")},
		{expr: `title("hello world")`, want: cty.StringVal("Hello World")},
		{expr: `trim("?!hello?!", "!?")`, want: cty.StringVal("hello")},
		{expr: `trimprefix("helloworld", "hello")`, want: cty.StringVal("world")},
		{expr: `trimsuffix("helloworld", "world")`, want: cty.StringVal("hello")},
		{expr: `trimspace("  hello\n\n")`, want: cty.StringVal("hello")},
		{expr: `upper("hello")`, want: cty.StringVal("HELLO")},
		{expr: `upper(secret)`, want: cty.StringVal("HUNTER2").Mark(marks.Sensitive)},
	})
}

func TestCollectionFunctions(t *testing.T) {
	runCases(t, []functionCase{
		{expr: `alltrue(["true", true])`, want: cty.True},
		{expr: `alltrue([true, false])`, want: cty.False},
		{expr: `anytrue([true, false])`, want: cty.True},
		{expr: `anytrue([])`, want: cty.False},
		{expr: `chunklist(["a", "b", "c", "d", "e"], 2)`, want: cty.ListVal([]cty.Value{cty.ListVal(strs("a", "b")), cty.ListVal(strs("c", "d")), cty.ListVal(strs("e"))})},
		{expr: `coalesce("a", "b")`, want: cty.StringVal("a")},
		{expr: `coalesce("", "b")`, want: cty.StringVal("b")},
		{expr: `coalesce(1, 2)`, want: cty.NumberIntVal(1)},
		{expr: `coalesce(null, "")`, wantErr: "no non-null, non-empty-string arguments"},
		{expr: `coalescelist(["a", "b"], ["c", "d"])`, want: cty.TupleVal(strs("a", "b"))},
		{expr: `compact(["a", "", "b", null, "c"])`, want: cty.ListVal(strs("a", "b", "c"))},
		{expr: `concat(["a", ""], ["b", "c"])`, want: cty.TupleVal(strs("a", "", "b", "c"))},
		{expr: `contains(["a", "b", "c"], "a")`, want: cty.True},
		{expr: `distinct(["a", "b", "a", "c", "d", "b"])`, want: cty.ListVal(strs("a", "b", "c", "d"))},
		{expr: `element(["a", "b", "c"], 3)`, want: cty.StringVal("a")},
		{expr: `flatten([["a", "b"], [], ["c"]])`, want: cty.TupleVal(strs("a", "b", "c"))},
		{expr: `index(["a", "b", "c"], "b")`, want: cty.NumberIntVal(1)},
		{expr: `index(["a"], "z")`, wantErr: "item not found"},
		{expr: `keys({a=1, c=2, d=3})`, want: cty.TupleVal(strs("a", "c", "d"))},
		{expr: `length([])`, want: cty.NumberIntVal(0)},
		{expr: `length({"a" = "b"})`, want: cty.NumberIntVal(1)},
		{expr: `length("👾🕹️")`, want: cty.NumberIntVal(2)},
		{expr: `length(secret)`, want: cty.NumberIntVal(7).Mark(marks.Sensitive)},
		{expr: `lookup({a="ay", b="bee"}, "a", "what?")`, want: cty.StringVal("ay")},
		{expr: `lookup({a="ay", b="bee"}, "c", "what?")`, want: cty.StringVal("what?")},
		{expr: `lookup(tomap({a="ay"}), "c")`, wantErr: `lookup failed to find key "c"`},
		{expr: `lookup(tomap({a="ay"}), secret)`, wantErr: "lookup failed to find key (sensitive value)"},
		{expr: `matchkeys(["i-123", "i-abc", "i-def"], ["us-west", "us-east", "us-east"], ["us-east"])`, want: cty.ListVal(strs("i-abc", "i-def"))},
		{expr: `merge({a="b", c="d"}, {e="f", c="z"})`, want: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("b"), "c": cty.StringVal("z"), "e": cty.StringVal("f")})},
		{expr: `one([])`, want: cty.NullVal(cty.DynamicPseudoType)},
		{expr: `one(["hello"])`, want: cty.StringVal("hello")},
		{expr: `one(["hello", "goodbye"])`, wantErr: "must be a list, set, or tuple value with either zero or one elements"},
		{expr: `range(1, 4)`, want: cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2), cty.NumberIntVal(3)})},
		{expr: `reverse([1, 2, 3])`, want: cty.TupleVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(2), cty.NumberIntVal(1)})},
		{expr: `setintersection(["a", "b"], ["b", "c"], ["b", "d"])`, want: cty.SetVal(strs("b"))},
		{expr: `setsubtract(["a", "b", "c"], ["a", "c"])`, want: cty.SetVal(strs("b"))},
		{expr: `setunion(["a", "b"], ["b", "c"], ["d"])`, want: cty.SetVal(strs("d", "b", "a", "c"))},
		{expr: `length(setproduct(["development", "staging"], ["app1", "app2"]))`, want: cty.NumberIntVal(4)},
		{expr: `slice(["a", "b", "c", "d"], 1, 3)`, want: cty.TupleVal(strs("b", "c"))},
		{expr: `sort(["e", "d", "a", "x"])`, want: cty.ListVal(strs("a", "d", "e", "x"))},
		{expr: `transpose({"a" = ["1", "2"], "b" = ["2", "3"]})`, want: cty.MapVal(map[string]cty.Value{"1": cty.ListVal(strs("a")), "2": cty.ListVal(strs("a", "b")), "3": cty.ListVal(strs("b"))})},
		{expr: `values({a=3, c=2, d=1})`, want: cty.TupleVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(2), cty.NumberIntVal(1)})},
		{expr: `zipmap(["a", "b"], [1, 2])`, want: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(2)})},
		{expr: `list("a")`, wantErr: "use tolist([ ... ]) syntax"},
		{expr: `map("a", 1)`, wantErr: "use tomap({ ... }) syntax"},
	})
}

func TestEncodingFunctions(t *testing.T) {
	runCases(t, []functionCase{
		{expr: `base64encode("Hello World")`, want: cty.StringVal("SGVsbG8gV29ybGQ=")},
		{expr: `base64decode("SGVsbG8gV29ybGQ=")`, want: cty.StringVal("Hello World")},
		{expr: `base64decode("////")`, wantErr: "not valid UTF-8"},
		{expr: `base64decode(secret)`, wantErr: "failed to decode base64 data (sensitive value)"},
		{expr: `base64gunzip(base64gzip("hello world"))`, want: cty.StringVal("hello world")},
		// Byte for byte what OpenTofu and Terraform produce (a sync-flushed
		// stream), so migrated configurations plan no changes.
		{expr: `base64gzip("test")`, want: cty.StringVal("H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA")},
		{expr: `csvdecode("a,b\n1,2\n")`, want: cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("2")})})},
		{expr: `jsonencode({"hello"="world"})`, want: cty.StringVal(`{"hello":"world"}`)},
		{expr: `jsondecode("{\"hello\": \"world\"}")`, want: cty.ObjectVal(map[string]cty.Value{"hello": cty.StringVal("world")})},
		{expr: `jsondecode("true")`, want: cty.True},
		{expr: `textencodebase64("Hello World", "UTF-16LE")`, want: cty.StringVal("SABlAGwAbABvACAAVwBvAHIAbABkAA==")},
		{expr: `textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")`, want: cty.StringVal("Hello World")},
		{expr: `textencodebase64("x", "no-such")`, wantErr: "not a supported IANA encoding name"},
		{expr: `urlencode("Hello World!")`, want: cty.StringVal("Hello+World%21")},
		{expr: `urlencode("☃")`, want: cty.StringVal("%E2%98%83")},
		{expr: `urldecode("Hello+World%21")`, want: cty.StringVal("Hello World!")},
		{expr: `urldecode("%zz")`, wantErr: "failed to decode URL"},
		{expr: `yamldecode("hello: world")`, want: cty.ObjectVal(map[string]cty.Value{"hello": cty.StringVal("world")})},
		{expr: `yamlencode({"a":"b", "c":"d"})`, want: cty.StringVal("\"a\": \"b\"\n\"c\": \"d\"\n")},
	})
}

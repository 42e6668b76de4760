package funcs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/marks"
)

func TestFilesystemFunctions(t *testing.T) {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	runCases(t, []functionCase{
		{expr: `file("testdata/hello.txt")`, want: cty.StringVal("Hello World")},
		{expr: `file(sensitive("testdata/hello.txt"))`, want: cty.StringVal("Hello World").Mark(marks.Sensitive)},
		{expr: `file("testdata/missing.txt")`, wantErr: "no file exists at \"testdata/missing.txt\""},
		{expr: `file("testdata/missing.txt")`, wantErr: `Invalid function argument; Invalid value for "path" parameter`},
		{expr: `filebase64("testdata")`, wantErr: `Invalid value for "path" parameter: failed to read file: read testdata: is a directory`},
		{expr: `templatefile("testdata/missing.tmpl", {})`, wantErr: `Invalid value for "path" parameter: no file exists`},
		{expr: `file("testdata/binary.bin")`, wantErr: "are not valid UTF-8; use the filebase64 function"},
		{expr: `filebase64("testdata/hello.txt")`, want: cty.StringVal("SGVsbG8gV29ybGQ=")},
		{expr: `fileexists("testdata/hello.txt")`, want: cty.True},
		{expr: `fileexists("testdata/nope.txt")`, want: cty.False},
		{expr: `fileexists("testdata")`, wantErr: `"testdata" is a directory, not a file`},
		{expr: `fileset("testdata/tree", "*.txt")`, want: cty.SetVal(strs("a.txt"))},
		{expr: `fileset("testdata/tree", "**/*.txt")`, want: cty.SetVal(strs("a.txt", "sub/c.txt"))},
		{expr: `fileset("testdata/tree", "{sub/*,*.md}")`, want: cty.SetVal(strs("b.md", "sub/c.txt"))},
		{expr: `fileset("testdata/tree", "*.none")`, want: cty.SetValEmpty(cty.String)},
		{expr: `abspath("testdata")`, want: cty.StringVal(filepath.ToSlash(filepath.Join(cwd, "testdata")))},
		{expr: `basename("foo/bar/baz.txt")`, want: cty.StringVal("baz.txt")},
		{expr: `dirname("foo/bar/baz.txt")`, want: cty.StringVal("foo/bar")},
		{expr: `pathexpand("~/.ssh/id_rsa")`, want: cty.StringVal(filepath.Join(home, ".ssh/id_rsa"))},
		{expr: `pathexpand("/etc/resolv.conf")`, want: cty.StringVal("/etc/resolv.conf")},
		{expr: `templatefile("testdata/hello.tmpl", {name = "Ander", list = ["a", "b"]})`, want: cty.StringVal("Hello, Ander!\n- a\n- b\n")},
		{expr: `templatefile("testdata/hello.tmpl", {name = "x"})`, wantErr: `vars map does not contain key "list", referenced at testdata/hello.tmpl:2,13-17`},
		{expr: `templatefile("testdata/hello.tmpl", {"1bad" = 1, name = "x", list = []})`, wantErr: `invalid template variable name "1bad"`},
		{expr: `templatefile("testdata/recursive.tmpl", {})`, wantErr: "maximum recursion depth 1024 reached"},
		{expr: `templatestring("Hello, $${name}!", {name = "world"})`, want: cty.StringVal("Hello, world!")},
		{expr: `templatestring("$${upper(x)}", {x = "a"})`, want: cty.StringVal("A")},
		{expr: `templatestring("$${y}", {x = "a"})`, wantErr: `vars map does not contain key "y"`},
	})
}

func TestHashAndCryptoFunctions(t *testing.T) {
	runCases(t, []functionCase{
		{expr: `md5("hello world")`, want: cty.StringVal("5eb63bbbe01eeed093cb22bb8f5acdc3")},
		{expr: `sha1("hello world")`, want: cty.StringVal("2aae6c35c94fcfb415dbe95f408b9ce91ee846ed")},
		{expr: `sha256("hello world")`, want: cty.StringVal("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9")},
		{expr: `sha512("hello world")`, want: cty.StringVal("309ecc489c12d6eb4cc40f50c902f2b4d0ed77ee511a7c7a9bcd3ca86d4cd86f989dd35bc5ff499670da34255b45b0cfd830e81f605dcf7dc5542e93ae9cd76f")},
		{expr: `base64sha256("hello world")`, want: cty.StringVal("uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek=")},
		{expr: `base64sha512("hello world")`, want: cty.StringVal("MJ7MSJwS1utMxA9QyQLytNDtd+5RGnx6m808qG1M2G+YndNbxf9JlnDaNCVbRbDP2DDoH2Bdz33FVC6TrpzXbw==")},
		{expr: `filemd5("testdata/hello.txt")`, want: cty.StringVal("b10a8db164e0754105b7a99be72e3fe5")},
		{expr: `filesha1("testdata/hello.txt")`, want: cty.StringVal("0a4d55a8d778e5022fab701977c5d840bbc486d0")},
		{expr: `filesha256("testdata/hello.txt")`, want: cty.StringVal("a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e")},
		{expr: `filebase64sha256("testdata/hello.txt")`, want: cty.StringVal("pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4=")},
		{expr: `length(filesha512("testdata/hello.txt"))`, want: cty.NumberIntVal(128)},
		{expr: `length(filebase64sha512("testdata/hello.txt"))`, want: cty.NumberIntVal(88)},
		{expr: `uuidv5("dns", "www.terraform.io")`, want: cty.StringVal("a5008fae-b28c-5ba5-96cd-82b4c53552d6")},
		{expr: `uuidv5("url", "https://www.terraform.io/")`, want: cty.StringVal("9db6f67c-dd95-5ea0-aa5b-e70e5c5f7cf5")},
		{expr: `length(uuid())`, want: cty.NumberIntVal(36)},
		{expr: `startswith(bcrypt("hello world"), "$2a$10$")`, want: cty.True},
		{expr: `rsadecrypt("bm90", "not a key")`, wantErr: "the private key must be PEM-encoded"},
		{expr: `rsadecrypt("!!", "not a key")`, wantErr: "cipher text must be base64-encoded"},
	})
}

func TestNetworkFunctions(t *testing.T) {
	runCases(t, []functionCase{
		{expr: `cidrhost("10.12.112.0/20", 16)`, want: cty.StringVal("10.12.112.16")},
		{expr: `cidrhost("10.12.112.0/20", 268)`, want: cty.StringVal("10.12.113.12")},
		{expr: `cidrhost("10.12.112.0/20", -1)`, want: cty.StringVal("10.12.127.255")},
		{expr: `cidrhost("fd00:fd12:3456:7890:00a2::/72", 34)`, want: cty.StringVal("fd00:fd12:3456:7890::22")},
		{expr: `cidrhost("010.1.0.0/16", 1)`, want: cty.StringVal("10.1.0.1")},
		{expr: `cidrhost("not-a-cidr", 1)`, wantErr: "invalid CIDR expression"},
		{expr: `cidrhost("10.0.0.0/30", 8)`, wantErr: "prefix of 30 does not accommodate a host numbered 8"},
		{expr: `cidrnetmask("172.16.0.0/12")`, want: cty.StringVal("255.240.0.0")},
		{expr: `cidrnetmask("fd00::/8")`, wantErr: "IPv6 addresses cannot have a netmask"},
		{expr: `cidrsubnet("172.16.0.0/12", 4, 2)`, want: cty.StringVal("172.18.0.0/16")},
		{expr: `cidrsubnet("10.1.2.0/24", 4, 15)`, want: cty.StringVal("10.1.2.240/28")},
		{expr: `cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`, want: cty.StringVal("fd00:fd12:3456:7800:a200::/72")},
		{expr: `cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`, want: cty.ListVal(strs("10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20"))},
		{expr: `cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32)`, want: cty.ListVal(strs("fd00:fd12:3456:7800::/72", "fd00:fd12:3456:7800:100::/72", "fd00:fd12:3456:7800:200::/72", "fd00:fd12:3456:7800:300::/88"))},
		{expr: `cidrsubnets("10.0.0.0/30", 1, 1, 1)`, wantErr: "not enough remaining address space"},
		{expr: `cidrsubnets("10.0.0.0/30", 3)`, wantErr: "too long for an IPv4 address"},
		{expr: `cidrcontains("192.168.2.0/24", "192.168.2.1")`, want: cty.True},
		{expr: `cidrcontains("192.168.2.0/24", "192.168.3.1")`, want: cty.False},
		{expr: `cidrcontains("192.168.2.0/24", "192.168.2.0/25")`, want: cty.True},
		{expr: `cidrcontains("192.168.2.0/24", "192.168.0.0/16")`, want: cty.False},
		{expr: `cidrcontains("fd00::/8", "192.168.0.1")`, wantErr: "address family mismatch"},
	})
}

func TestDateAndTimeFunctions(t *testing.T) {
	runCases(t, []functionCase{
		{expr: `formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z")`, want: cty.StringVal("02 Jan 2018 23:12 UTC")},
		{expr: `formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01Z")`, want: cty.StringVal("Tuesday, 02-Jan-18 23:12:01 UTC")},
		{expr: `formatdate("h:mm", "2018-01-02T23:12:01-08:00")`, want: cty.StringVal("23:12")},
		{expr: `timeadd("2017-11-22T00:00:00Z", "10m")`, want: cty.StringVal("2017-11-22T00:10:00Z")},
		{expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z")`, want: cty.NumberIntVal(0)},
		{expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00Z")`, want: cty.NumberIntVal(-1)},
		{expr: `timecmp("2017-11-22T01:00:00+01:00", "2017-11-22T00:00:00Z")`, want: cty.NumberIntVal(0)},
		{expr: `timecmp("2017-11-22", "2017-11-22T00:00:00Z")`, wantErr: "not a valid RFC3339 timestamp"},
		{expr: `plantimestamp()`, want: cty.StringVal("2024-03-05T10:11:12Z")},
		{expr: `length(timestamp())`, want: cty.NumberIntVal(20)},
	})
}

func TestConversionAndSensitivityFunctions(t *testing.T) {
	runCases(t, []functionCase{
		{expr: `tobool("true")`, want: cty.True},
		{expr: `tobool("yes")`, wantErr: `cannot convert "yes" to bool; only the strings "true" or "false" are allowed`},
		{expr: `tobool(secret)`, wantErr: "cannot convert this sensitive string to bool"},
		{expr: `tolist(["a", "b", 3])`, want: cty.ListVal(strs("a", "b", "3"))},
		{expr: `tomap({"a" = 1, "b" = 2})`, want: cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(2)})},
		{expr: `tonumber("1")`, want: cty.NumberIntVal(1)},
		{expr: `tonumber("no")`, wantErr: "given string must be a decimal representation of a number"},
		{expr: `toset(["c", "b", "b"])`, want: cty.SetVal(strs("b", "c"))},
		{expr: `tostring(true)`, want: cty.StringVal("true")},
		{expr: `tostring(null)`, want: cty.NullVal(cty.String)},
		{expr: `tostring([])`, wantErr: "cannot convert tuple to string"},
		{expr: `tostring(secret)`, want: cty.StringVal("hunter2").Mark(marks.Sensitive)},
		// Marks stay on the elements they were on: only the secret is hidden.
		{expr: `tolist([secret, "b"])`, want: cty.ListVal([]cty.Value{cty.StringVal("hunter2").Mark(marks.Sensitive), cty.StringVal("b")})},
		{expr: `tomap({a = secret, b = 1})`, want: cty.MapVal(map[string]cty.Value{"a": cty.StringVal("hunter2").Mark(marks.Sensitive), "b": cty.StringVal("1")})},
		// A set cannot tell its elements apart by marks, so the whole set is.
		{expr: `toset([secret])`, want: cty.SetVal(strs("hunter2")).Mark(marks.Sensitive)},
		{expr: `tolist([secret, []])`, wantErr: "cannot convert tuple to list of any single type"},
		{expr: `sensitive(1)`, want: cty.NumberIntVal(1).Mark(marks.Sensitive)},
		{expr: `nonsensitive(secret)`, want: cty.StringVal("hunter2")},
		{expr: `issensitive(secret)`, want: cty.True},
		{expr: `issensitive("x")`, want: cty.False},
		{expr: `ephemeralasnull("plain")`, want: cty.StringVal("plain")},
		{expr: `ephemeralasnull(token)`, want: cty.NullVal(cty.String)},
		// Only the ephemeral mark goes: a sensitive one stays on the null.
		{expr: `ephemeralasnull(both)`, want: cty.NullVal(cty.String).Mark(marks.Sensitive)},
		{expr: `ephemeralasnull({a = token, b = "kept", c = [token, "x"]})`, want: cty.ObjectVal(map[string]cty.Value{
			"a": cty.NullVal(cty.String), "b": cty.StringVal("kept"),
			"c": cty.TupleVal([]cty.Value{cty.NullVal(cty.String), cty.StringVal("x")}),
		})},
		{expr: `ephemeralasnull(tomap({a = token, b = "kept"}))`, want: cty.MapVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "b": cty.StringVal("kept")})},
		{expr: `ephemeralasnull(tolist([token, "x"]))`, want: cty.ListVal([]cty.Value{cty.NullVal(cty.String), cty.StringVal("x")})},
		{expr: `ephemeralasnull("${token}-suffix")`, want: cty.NullVal(cty.String)},
		{expr: `ephemeralasnull(secret)`, want: cty.StringVal("hunter2").Mark(marks.Sensitive)},
		// An unknown value stays unknown: whether it will be ephemeral is
		// not known either.
		{expr: `ephemeralasnull(unknown)`, want: cty.UnknownVal(cty.String)},
		{expr: `ephemeralasnull([token, unknown])`, want: cty.TupleVal([]cty.Value{cty.NullVal(cty.String), cty.UnknownVal(cty.String)})},
		{expr: `try(tonumber("x"), "fallback")`, want: cty.StringVal("fallback")},
		{expr: `can(regex("^ami-", "ami-123"))`, want: cty.True},
		{expr: `can(regex("^ami-", "xyz"))`, want: cty.False},
	})
}

func TestNamespacedFunctions(t *testing.T) {
	runCases(t, []functionCase{
		{expr: `core::upper("a")`, want: cty.StringVal("A")},
		{expr: `core::templatestring("$${x}", {x = 1})`, want: cty.NumberIntVal(1)},
		{expr: `provider::terraform::encode_tfvars({example = "Hello!", count = 2})`, want: cty.StringVal("count   = 2\nexample = \"Hello!\"\n")},
		{expr: `provider::terraform::encode_tfvars({"not valid" = 1})`, wantErr: `invalid variable name "not valid"`},
		{expr: `provider::terraform::decode_tfvars("example = \"Hello!\"\nn = [1]")`, want: cty.ObjectVal(map[string]cty.Value{"example": cty.StringVal("Hello!"), "n": cty.TupleVal([]cty.Value{cty.NumberIntVal(1)})})},
		{expr: `provider::terraform::decode_tfvars("a = var.b")`, wantErr: `invalid expression for variable "a"`},
		{expr: `provider::terraform::encode_expr("hello")`, want: cty.StringVal(`"hello"`)},
		{expr: `provider::terraform::encode_expr([1, true])`, want: cty.StringVal(`[1, true]`)},
		{expr: `provider::terraform::encode_expr(unknown)`, want: cty.UnknownVal(cty.String).RefineNotNull()},
	})
}

func TestImpureFunctionsAreUnknownWhenPureOnly(t *testing.T) {
	table := Table(Options{PureOnly: true})
	for _, name := range []string{"uuid", "timestamp"} {
		got, err := table[name].Call(nil)
		if err != nil {
			t.Fatalf("%s(): %s", name, err)
		}
		if got.IsKnown() {
			t.Errorf("%s() = %#v in a pure-only scope, want unknown", name, got)
		}
	}
	if _, ok := table["type"]; ok {
		t.Errorf("type() must be offered only by the console")
	}
	if _, ok := Table(Options{ConsoleMode: true})["plantimestamp"]; ok {
		t.Errorf("plantimestamp() must not be offered by the console")
	}
}

func TestTypeFunctionReturnsTheType(t *testing.T) {
	got, err := Table(Options{ConsoleMode: true})["type"].Call([]cty.Value{cty.ListValEmpty(cty.String)})
	if err != nil {
		t.Fatal(err)
	}
	if ty := *got.EncapsulatedValue().(*cty.Type); !ty.Equals(cty.List(cty.String)) {
		t.Errorf("type(tolist([])) = %#v", ty)
	}
}

func TestEveryDocumentedFunctionIsInTable(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	table := Table(Options{ConsoleMode: true})
	table["plantimestamp"] = Table(Options{})["plantimestamp"]
	listed := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		fields := strings.Fields(strings.TrimPrefix(line, "//"))
		if len(fields) >= 2 && strings.HasSuffix(fields[0], "()") {
			name := strings.TrimSuffix(fields[0], "()")
			listed[name] = true
			if _, ok := table[name]; !ok {
				t.Errorf("doc.go lists %s but the table lacks it", name)
			}
		}
	}
	for name := range table {
		if !strings.Contains(name, "::") && !listed[name] {
			t.Errorf("table has %s but doc.go does not list it", name)
		}
	}
}

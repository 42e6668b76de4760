package funcs

import (
	"time"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// CoreNamespace prefixes every built-in function's second name, so that
// `core::upper` still reaches the built-in when a module shadows `upper`.
const CoreNamespace = "core::"

// Options are the per-scope facts some functions depend on.
type Options struct {
	// BaseDir is the directory relative file paths are read from: the
	// working directory, as in OpenTofu, not the module's directory.
	BaseDir string
	// PlanTimestamp is what plantimestamp() returns; zero makes it unknown.
	PlanTimestamp time.Time
	// Now is the clock behind timestamp(); nil means time.Now.
	Now func() time.Time
	// ConsoleMode adds type(), which only the console offers, and drops
	// plantimestamp(), which means nothing there.
	ConsoleMode bool
	// PureOnly makes the impure functions (bcrypt, timestamp, uuid) return
	// unknown values, for planning passes whose results must be repeatable.
	PureOnly bool
}

// impureFunctions give a different result on every call.
var impureFunctions = []string{"bcrypt", "timestamp", "uuid"}

// Table builds a fresh function table for one evaluation scope. Each call
// returns a new map, so a scope may add to it (provider functions) freely.
func Table(opts Options) map[string]function.Function {
	table := baseTable(opts.BaseDir)
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	table["timestamp"] = MakeTimestampFunc(now)
	if opts.ConsoleMode {
		table["type"] = TypeFunc
	} else {
		table["plantimestamp"] = MakeStaticTimestampFunc(opts.PlanTimestamp)
	}
	if opts.PureOnly {
		for _, name := range impureFunctions {
			table[name] = function.Unpredictable(table[name])
		}
	}
	// The templates see the same table they are part of, core:: names and
	// the built-in provider functions included.
	lookup := func() map[string]function.Function { return table }
	table["templatefile"] = MakeTemplateFileFunc(opts.BaseDir, lookup)
	table["templatestring"] = MakeTemplateStringFunc(lookup)

	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	for _, name := range names {
		table[CoreNamespace+name] = table[name]
	}
	for name, f := range builtinProviderFuncs() {
		table[name] = f
	}
	return table
}

func baseTable(baseDir string) map[string]function.Function {
	table := map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc,
		"log": LogFunc, "max": stdlib.MaxFunc, "min": stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc, "pow": PowFunc, "signum": stdlib.SignumFunc,
		"sum": SumFunc,

		"chomp": stdlib.ChompFunc, "endswith": EndsWithFunc, "format": stdlib.FormatFunc,
		"formatlist": stdlib.FormatListFunc, "indent": stdlib.IndentFunc, "join": stdlib.JoinFunc,
		"lower": stdlib.LowerFunc, "regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc,
		"replace": ReplaceFunc, "split": stdlib.SplitFunc, "startswith": StartsWithFunc,
		"strcontains": StrContainsFunc, "strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc,
		"title": stdlib.TitleFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
		"trimspace": stdlib.TrimSpaceFunc, "trimsuffix": stdlib.TrimSuffixFunc, "upper": stdlib.UpperFunc,

		"alltrue": AllTrueFunc, "anytrue": AnyTrueFunc, "chunklist": stdlib.ChunklistFunc,
		"coalesce": CoalesceFunc, "coalescelist": stdlib.CoalesceListFunc, "compact": stdlib.CompactFunc,
		"concat": stdlib.ConcatFunc, "contains": ContainsFunc, "distinct": stdlib.DistinctFunc,
		"element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc, "index": IndexFunc,
		"keys": stdlib.KeysFunc, "length": LengthFunc, "lookup": LookupFunc,
		"matchkeys": MatchkeysFunc, "merge": stdlib.MergeFunc, "one": OneFunc,
		"range": stdlib.RangeFunc, "reverse": stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc, "setproduct": stdlib.SetProductFunc,
		"setsubtract": stdlib.SetSubtractFunc, "setunion": stdlib.SetUnionFunc,
		"slice": stdlib.SliceFunc, "sort": stdlib.SortFunc, "transpose": TransposeFunc,
		"values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
		"list": removedFunc("list", "tolist([ ... ])"), "map": removedFunc("map", "tomap({ ... })"),

		"base64decode": Base64DecodeFunc, "base64encode": Base64EncodeFunc,
		"base64gzip": Base64GzipFunc, "base64gunzip": Base64GunzipFunc,
		"csvdecode": stdlib.CSVDecodeFunc, "jsondecode": stdlib.JSONDecodeFunc,
		"jsonencode": stdlib.JSONEncodeFunc, "textdecodebase64": TextDecodeBase64Func,
		"textencodebase64": TextEncodeBase64Func, "urlencode": URLEncodeFunc,
		"urldecode": URLDecodeFunc, "yamldecode": ctyyaml.YAMLDecodeFunc,
		"yamlencode": ctyyaml.YAMLEncodeFunc,

		"abspath": AbsPathFunc, "basename": BasenameFunc, "dirname": DirnameFunc,
		"pathexpand": PathExpandFunc, "file": MakeFileFunc(baseDir, false),
		"filebase64": MakeFileFunc(baseDir, true), "fileexists": MakeFileExistsFunc(baseDir),
		"fileset": MakeFileSetFunc(baseDir),

		"formatdate": stdlib.FormatDateFunc, "timeadd": stdlib.TimeAddFunc, "timecmp": TimeCmpFunc,

		"base64sha256": Base64Sha256Func, "base64sha512": Base64Sha512Func, "bcrypt": BcryptFunc,
		"md5": Md5Func, "rsadecrypt": RsaDecryptFunc, "sha1": Sha1Func, "sha256": Sha256Func,
		"sha512": Sha512Func, "uuid": UUIDFunc, "uuidv5": UUIDV5Func,

		"cidrcontains": CidrContainsFunc, "cidrhost": CidrHostFunc, "cidrnetmask": CidrNetmaskFunc,
		"cidrsubnet": CidrSubnetFunc, "cidrsubnets": CidrSubnetsFunc,

		"can": tryfunc.CanFunc, "try": tryfunc.TryFunc,
		"tobool": MakeToFunc(cty.Bool), "tolist": MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap": MakeToFunc(cty.Map(cty.DynamicPseudoType)), "tonumber": MakeToFunc(cty.Number),
		"toset": MakeToFunc(cty.Set(cty.DynamicPseudoType)), "tostring": MakeToFunc(cty.String),

		"issensitive": IsSensitiveFunc, "nonsensitive": NonsensitiveFunc, "sensitive": SensitiveFunc,
		"ephemeralasnull": EphemeralAsNullFunc,
	}
	for name, f := range fileHashFuncs(baseDir) {
		table[name] = f
	}
	return table
}

// Package funcs is Terrane's built-in function library: every function the
// Terraform language offers, behaving as OpenTofu's does, assembled into a
// fresh table per evaluation scope by [Table].
//
// Most functions come from cty's stdlib, go-cty-funcs, go-cty-yaml and hcl's
// tryfunc; this package adds the rest and wraps the ones whose behaviour
// differs (marks, error wording, OpenTofu extensions). Every name is also
// reachable as core::NAME. There is no global mutable state: file functions
// read relative to Options.BaseDir and plantimestamp returns
// Options.PlanTimestamp.
//
// Function table (source: stdlib = cty stdlib, cty-funcs = go-cty-funcs,
// yaml = go-cty-yaml, hcl = hcl ext/tryfunc, own = this package, wrap = this
// package around a library function):
//
//	abs()              stdlib     numeric
//	ceil()             stdlib     numeric
//	floor()            stdlib     numeric
//	log()              wrap       numeric
//	max()              stdlib     numeric
//	min()              stdlib     numeric
//	parseint()         stdlib     numeric
//	pow()              wrap       numeric
//	signum()           stdlib     numeric
//	sum()              own        numeric
//	chomp()            stdlib     string
//	endswith()         own        string (OpenTofu)
//	format()           stdlib     string
//	formatlist()       stdlib     string
//	indent()           stdlib     string
//	join()             stdlib     string
//	lower()            stdlib     string
//	regex()            stdlib     string
//	regexall()         stdlib     string
//	replace()          own        string; "/re/" substr is a regular expression
//	split()            stdlib     string
//	startswith()       own        string; decides unknown strings by their known prefix
//	strcontains()      own        string
//	strrev()           stdlib     string
//	substr()           stdlib     string
//	title()            stdlib     string
//	trim()             stdlib     string
//	trimprefix()       stdlib     string
//	trimspace()        stdlib     string
//	trimsuffix()       stdlib     string
//	upper()            stdlib     string
//	alltrue()          own        collection
//	anytrue()          own        collection
//	chunklist()        stdlib     collection
//	coalesce()         own        collection; skips empty strings as well as nulls
//	coalescelist()     stdlib     collection
//	compact()          stdlib     collection
//	concat()           stdlib     collection
//	contains()         stdlib     collection
//	distinct()         stdlib     collection
//	element()          stdlib     collection
//	flatten()          stdlib     collection
//	index()            own        collection (stdlib's index is the [] operator)
//	keys()             stdlib     collection
//	length()           own        collection; also counts characters of strings
//	list()             own        removed in v0.12; explains tolist([...])
//	lookup()           own        collection; default optional, sensitive keys redacted
//	map()              own        removed in v0.12; explains tomap({...})
//	matchkeys()        own        collection
//	merge()            stdlib     collection
//	one()              own        collection
//	range()            stdlib     collection
//	reverse()          stdlib     collection
//	setintersection()  stdlib     collection
//	setproduct()       stdlib     collection
//	setsubtract()      stdlib     collection
//	setunion()         stdlib     collection
//	slice()            stdlib     collection
//	sort()             stdlib     collection
//	transpose()        own        collection
//	values()           stdlib     collection
//	zipmap()           stdlib     collection
//	base64decode()     own        encoding; sensitive input redacted from errors
//	base64encode()     own        encoding
//	base64gzip()       own        encoding
//	base64gunzip()     own        encoding (OpenTofu)
//	csvdecode()        stdlib     encoding
//	jsondecode()       stdlib     encoding
//	jsonencode()       stdlib     encoding
//	textdecodebase64() own        encoding (IANA names via x/text)
//	textencodebase64() own        encoding
//	urldecode()        own        encoding (OpenTofu)
//	urlencode()        own        encoding
//	yamldecode()       yaml       encoding
//	yamlencode()       yaml       encoding
//	abspath()          own        filesystem
//	basename()         own        filesystem
//	dirname()          own        filesystem
//	pathexpand()       own        filesystem (go-homedir)
//	file()             own        filesystem; sensitive path gives sensitive content
//	filebase64()       own        filesystem
//	fileexists()       own        filesystem
//	fileset()          own        filesystem (doublestar v4)
//	templatefile()     own        filesystem; nested calls limited to 1024 deep
//	templatestring()   own        filesystem (OpenTofu)
//	formatdate()       stdlib     date and time
//	plantimestamp()    own        date and time; not in the console
//	timeadd()          stdlib     date and time
//	timecmp()          own        date and time
//	timestamp()        own        date and time; impure
//	base64sha256()     own        hash
//	base64sha512()     own        hash
//	bcrypt()           cty-funcs  hash; impure
//	filebase64sha256() own        hash
//	filebase64sha512() own        hash
//	filemd5()          own        hash
//	filesha1()         own        hash
//	filesha256()       own        hash
//	filesha512()       own        hash
//	md5()              cty-funcs  hash
//	rsadecrypt()       own        crypto; never echoes key or ciphertext
//	sha1()             cty-funcs  hash
//	sha256()           cty-funcs  hash
//	sha512()           cty-funcs  hash
//	uuid()             cty-funcs  uuid; impure
//	uuidv5()           cty-funcs  uuid
//	cidrcontains()     own        network (OpenTofu)
//	cidrhost()         own        network (go-cidr); big and negative host numbers
//	cidrnetmask()      own        network
//	cidrsubnet()       own        network (go-cidr)
//	cidrsubnets()      own        network (go-cidr)
//	can()              hcl        type conversion
//	try()              hcl        type conversion
//	tobool()           wrap       type conversion; sensitive values redacted from errors
//	tolist()           wrap       type conversion
//	tomap()            wrap       type conversion
//	tonumber()         wrap       type conversion
//	toset()            wrap       type conversion
//	tostring()         wrap       type conversion
//	type()             own        console only; returns a TypeType capsule
//	issensitive()      own        sensitivity (OpenTofu)
//	nonsensitive()     own        sensitivity
//	sensitive()        own        sensitivity
//	ephemeralasnull()  own        ephemerality
//
// The built-in provider functions provider::terraform::encode_tfvars,
// provider::terraform::decode_tfvars and provider::terraform::encode_expr
// are in the table too; they need no provider process.
package funcs

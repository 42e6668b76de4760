package depsfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

// header is the comment every lock file starts with, OpenTofu's: the file
// is shared with OpenTofu, so a different header would show as a change in
// version control every time the other tool rewrote it, and tools that tell
// an OpenTofu working directory from a Terraform one read it.
const header = "# This file is maintained automatically by \"tofu init\".\n" +
	"# Manual edits may be lost in future updates.\n"

// LoadFile reads the lock file at path. A file that does not exist is an
// empty set of locks, as before the first init. When the diagnostics have
// errors the locks hold only the blocks that could be read.
func LoadFile(path string) (*Locks, diags.Diagnostics) {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return NewLocks(), nil
	}
	if err != nil {
		return NewLocks(), diags.Diagnostics{diags.Errorf("Cannot read the dependency lock file",
			"Reading %s failed: %s. Check the file's permissions, or delete it and run terrane init to write a new one.", path, err)}
	}
	return Parse(src, path)
}

// Parse reads lock file text; filename names it in diagnostics.
func Parse(src []byte, filename string) (*Locks, diags.Diagnostics) {
	locks := NewLocks()
	var ds diags.Diagnostics
	parser := hclparse.NewParser()
	file, hclDiags := parser.ParseHCL(src, filename)
	ds = ds.Append(hclDiags)
	locks.sources = parser.Files()
	if file == nil || hclDiags.HasErrors() {
		return locks, ds
	}
	content, hclDiags := file.Body.Content(&hcl.BodySchema{
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "provider", LabelNames: []string{"source_addr"}},
			// Reserved by Terraform for module locks; read and ignored.
			{Type: "module", LabelNames: []string{"path"}},
		},
	})
	ds = ds.Append(hclDiags)
	seen := map[addrs.Provider]hcl.Range{}
	warnedModule := false
	for _, block := range content.Blocks {
		if block.Type == "module" {
			if !warnedModule {
				ds = ds.Append(&hcl.Diagnostic{Severity: hcl.DiagWarning,
					Summary: "Module locks are not supported",
					Detail:  "The dependency lock file has a module block, which this version of Terrane ignores: it locks provider versions only.",
					Subject: block.TypeRange.Ptr()})
				warnedModule = true
			}
			continue
		}
		lock, more := decodeProviderBlock(block)
		ds = ds.Append(more)
		if lock == nil {
			continue
		}
		if previous, dup := seen[lock.provider]; dup {
			ds = ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError,
				Summary: "Duplicate provider lock",
				Detail:  fmt.Sprintf("The lock file already has a block for %s at %s. Remove one of them, or delete the file and run terrane init.", lock.provider, previous),
				Subject: block.DefRange.Ptr()})
			continue
		}
		seen[lock.provider] = block.DefRange
		locks.providers[lock.provider] = lock
	}
	return locks, ds
}

func decodeProviderBlock(block *hcl.Block) (*ProviderLock, diags.Diagnostics) {
	var ds diags.Diagnostics
	raw := block.Labels[0]
	provider, err := addrs.ParseProviderSource(raw)
	labelRange := block.LabelRanges[0].Ptr()
	switch {
	case err != nil:
		return nil, ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider source address",
			Detail:  fmt.Sprintf("%q is not a provider source address: %s. A lock names a provider fully, as hostname/namespace/type.", raw, err),
			Subject: labelRange})
	case provider.IsBuiltIn():
		return nil, ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider source address",
			Detail:  fmt.Sprintf("%s is built into Terrane, so it has no version to lock. Remove this block.", provider),
			Subject: labelRange})
	case provider.String() != raw:
		return nil, ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Non-normalized provider source address",
			Detail:  fmt.Sprintf("A provider lock must name its provider in the full, normalized form: write %q.", provider.String()),
			Subject: labelRange})
	}
	content, hclDiags := block.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "version", Required: true},
		{Name: "constraints"},
		{Name: "hashes"},
		{Name: parameterizationAttr},
	}})
	ds = ds.Append(hclDiags)
	if hclDiags.HasErrors() {
		return nil, ds
	}
	lock := &ProviderLock{provider: provider}
	var more diags.Diagnostics
	lock.version, more = decodeVersion(provider, content.Attributes["version"])
	ds = ds.Append(more)
	lock.constraints, more = decodeConstraints(provider, content.Attributes["constraints"])
	ds = ds.Append(more)
	lock.hashes, more = decodeHashes(provider, content.Attributes["hashes"])
	ds = ds.Append(more)
	parameterization, more := decodeParameterization(provider, content.Attributes[parameterizationAttr])
	ds = ds.Append(more)
	if ds.HasErrors() {
		return nil, ds
	}
	return NewProviderLock(lock.provider, lock.version, lock.constraints, lock.hashes).WithParameterization(parameterization), ds
}

// staticString reads an attribute that must be a literal string.
func staticString(attr *hcl.Attribute) (string, diags.Diagnostics) {
	value, hclDiags := attr.Expr.Value(nil)
	if hclDiags.HasErrors() {
		return "", diags.Diagnostics{}.Append(hclDiags)
	}
	value, err := convert.Convert(value, cty.String)
	if err != nil || value.IsNull() {
		return "", diags.Diagnostics{}.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + attr.Name,
			Detail:  fmt.Sprintf("The %q argument must be a string.", attr.Name),
			Subject: attr.Expr.Range().Ptr()})
	}
	return value.AsString(), nil
}

func decodeVersion(provider addrs.Provider, attr *hcl.Attribute) (versions.Version, diags.Diagnostics) {
	raw, ds := staticString(attr)
	if ds.HasErrors() {
		return versions.Unspecified, ds
	}
	version, err := versions.ParseVersion(raw)
	if err != nil {
		return versions.Unspecified, ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider version number",
			Detail:  fmt.Sprintf("The version locked for %s is not valid: %s.", provider, err),
			Subject: attr.Expr.Range().Ptr()})
	}
	// Only the canonical form is accepted, so a rewrite by any tool never
	// shows a change that means nothing.
	if canonical := version.String(); canonical != raw {
		return versions.Unspecified, ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider version number",
			Detail:  fmt.Sprintf("The version locked for %s must be written in normalized form: %q.", provider, canonical),
			Subject: attr.Expr.Range().Ptr()})
	}
	return version, ds
}

func decodeConstraints(provider addrs.Provider, attr *hcl.Attribute) (discovery.Constraints, diags.Diagnostics) {
	if attr == nil {
		return nil, nil
	}
	raw, ds := staticString(attr)
	if ds.HasErrors() {
		return nil, ds
	}
	spec, err := discovery.ParseConstraints(raw)
	if err != nil {
		return nil, ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider version constraints",
			Detail:  fmt.Sprintf("The version constraints recorded for %s are not valid: %s.", provider, err),
			Subject: attr.Expr.Range().Ptr()})
	}
	if canonical := ConstraintsString(spec); canonical != raw {
		return nil, ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider version constraints",
			Detail:  fmt.Sprintf("The version constraints recorded for %s must be written in normalized form: %q.", provider, canonical),
			Subject: attr.Expr.Range().Ptr()})
	}
	return spec, ds
}

func decodeHashes(provider addrs.Provider, attr *hcl.Attribute) ([]discovery.Hash, diags.Diagnostics) {
	if attr == nil {
		return nil, nil
	}
	var ds diags.Diagnostics
	// Static analysis rather than evaluation, so each bad element gets its
	// own source range.
	elements, hclDiags := hcl.ExprList(attr.Expr)
	ds = ds.Append(hclDiags)
	if hclDiags.HasErrors() {
		return nil, ds
	}
	if len(elements) == 0 {
		return nil, ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider hash set",
			Detail:  fmt.Sprintf("The hashes of %s must either be omitted or list at least one hash.", provider),
			Subject: attr.Expr.Range().Ptr()})
	}
	hashes := make([]discovery.Hash, 0, len(elements))
	for _, element := range elements {
		raw, more := staticString(&hcl.Attribute{Name: "hashes", Expr: element})
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		if err := checkHashSyntax(raw); err != nil {
			ds = ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider hash string",
				Detail:  fmt.Sprintf("Cannot read %q as a package hash of %s: %s.", raw, provider, err),
				Subject: element.Range().Ptr()})
			continue
		}
		hashes = append(hashes, discovery.Hash(raw))
	}
	return hashes, ds
}

// checkHashSyntax accepts SCHEME:VALUE. Schemes this version does not know
// are kept, so a newer tool's hashes survive a rewrite.
func checkHashSyntax(raw string) error {
	scheme, value, ok := strings.Cut(raw, ":")
	switch {
	case !ok:
		return errors.New("a hash is a scheme and a value separated by a colon, such as h1:...")
	case scheme == "" || strings.ContainsAny(scheme, " \t"):
		return errors.New("the scheme before the colon is missing or has spaces")
	case value == "":
		return errors.New("the value after the colon is empty")
	}
	return nil
}

// Bytes returns the lock file text for locks, exactly as Terraform and
// OpenTofu write it: the header, then one provider block per provider
// sorted by address, with version, constraints (if any) and hashes (if
// any) one per line. A Pulumi sub-package's block also has its
// parameterization, which only Terrane writes.
func (l *Locks) Bytes() []byte {
	file := hclwrite.NewEmptyFile()
	body := file.Body()
	body.AppendUnstructuredTokens(hclwrite.Tokens{
		{Type: hclsyntax.TokenComment, Bytes: []byte(header)},
	})
	for _, provider := range l.SortedProviders() {
		lock := l.providers[provider]
		body.AppendNewline()
		block := body.AppendNewBlock("provider", []string{provider.String()}).Body()
		block.SetAttributeValue("version", cty.StringVal(lock.version.String()))
		if text := ConstraintsString(lock.constraints); text != "" {
			block.SetAttributeValue("constraints", cty.StringVal(text))
		}
		if len(lock.hashes) > 0 {
			block.SetAttributeRaw("hashes", hashListTokens(lock.hashes))
		}
		if lock.parameterization != nil {
			encodeParameterization(block, lock.parameterization)
		}
	}
	return file.Bytes()
}

// hashListTokens lays the hashes out one per line with trailing commas,
// built from tokens so the layout never depends on hclwrite's formatter.
func hashListTokens(hashes []discovery.Hash) hclwrite.Tokens {
	tokens := hclwrite.Tokens{
		{Type: hclsyntax.TokenOBrack, Bytes: []byte("[")},
		{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")},
	}
	for _, hash := range hashes {
		tokens = append(tokens, hclwrite.TokensForValue(cty.StringVal(string(hash)))...)
		tokens = append(tokens,
			&hclwrite.Token{Type: hclsyntax.TokenComma, Bytes: []byte(",")},
			&hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
	}
	return append(tokens, &hclwrite.Token{Type: hclsyntax.TokenCBrack, Bytes: []byte("]")})
}

// WriteFile replaces the lock file at path with locks. It writes a
// temporary file beside it and renames it into place, so an interrupted
// write never leaves half a lock file and editors watching the file see
// one change.
func (l *Locks) WriteFile(path string) error {
	temp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return fmt.Errorf("writing the dependency lock file %s: %w", path, err)
	}
	defer os.Remove(temp.Name()) // a no-op after the rename
	_, err = temp.Write(l.Bytes())
	if err == nil {
		err = temp.Sync()
	}
	if closeErr := temp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Chmod(temp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(temp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("writing the dependency lock file %s: %w", path, err)
	}
	return nil
}

package depsfile

import (
	"encoding/base64"
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
)

// parameterizationAttr is the provider block attribute that records a
// Pulumi sub-package. Terraform and OpenTofu do not know it; a lock file
// without sub-packages never has it and stays exactly as they write it.
const parameterizationAttr = "parameterization"

// Parameterization records how a sub-package provider is made from its
// base package (Pulumi's Parameterize): the base package, which is what is
// installed, launched and hashed; the parameters the configuration gives;
// and the provider's answer — the sub-package name and version and its
// own encoding of the parameters — which later runs replay instead of
// resolving the sub-package again. In the file:
//
//	provider "registry.opentofu.org/pulumi/widgets" {
//	  version     = "0.1.0"          # of the base package
//	  hashes      = [...]            # of the base package
//	  parameterization = {
//	    args    = ["widgets"]
//	    base    = "registry.opentofu.org/pulumi/tpulumi"
//	    name    = "widgets"
//	    value   = "d2lkZ2V0cw=="     # base64
//	    version = "1.0.0"            # of the sub-package
//	  }
//	}
type Parameterization struct {
	Base    addrs.Provider
	Args    []string
	Name    string
	Version string
	Value   []byte
}

// Equal reports whether two records are the same.
func (p *Parameterization) Equal(other *Parameterization) bool {
	if p == nil || other == nil {
		return p == other
	}
	return p.Base == other.Base && slices.Equal(p.Args, other.Args) && p.Name == other.Name &&
		p.Version == other.Version && slices.Equal(p.Value, other.Value)
}

// Parameterization is the lock's sub-package record, or nil for an
// ordinary provider.
func (l *ProviderLock) Parameterization() *Parameterization { return l.parameterization }

// WithParameterization returns a copy of the lock recording the
// sub-package made from it.
func (l *ProviderLock) WithParameterization(p *Parameterization) *ProviderLock {
	copied := *l
	if p != nil {
		record := *p
		record.Args, record.Value = slices.Clone(p.Args), slices.Clone(p.Value)
		p = &record
	}
	copied.parameterization = p
	return &copied
}

// Package is the address of the provider package the lock's version and
// hashes belong to: the base package for a sub-package, else the
// provider itself.
func (l *ProviderLock) Package() addrs.Provider {
	if l.parameterization != nil {
		return l.parameterization.Base
	}
	return l.provider
}

// SetProviderLock records (or replaces) a lock built elsewhere, such as
// one with a parameterization.
func (l *Locks) SetProviderLock(lock *ProviderLock) {
	l.providers[lock.provider] = lock
}

type parameterizationFields struct {
	Args    []string `cty:"args"`
	Base    string   `cty:"base"`
	Name    string   `cty:"name"`
	Value   string   `cty:"value"`
	Version string   `cty:"version"`
}

var parameterizationType = cty.Object(map[string]cty.Type{
	"args": cty.List(cty.String), "base": cty.String, "name": cty.String, "value": cty.String, "version": cty.String,
})

func encodeParameterization(block *hclwrite.Body, p *Parameterization) {
	args := make([]cty.Value, len(p.Args))
	for i, arg := range p.Args {
		args[i] = cty.StringVal(arg)
	}
	list := cty.ListValEmpty(cty.String)
	if len(args) > 0 {
		list = cty.ListVal(args)
	}
	block.SetAttributeValue(parameterizationAttr, cty.ObjectVal(map[string]cty.Value{
		"args":    list,
		"base":    cty.StringVal(p.Base.String()),
		"name":    cty.StringVal(p.Name),
		"value":   cty.StringVal(base64.StdEncoding.EncodeToString(p.Value)),
		"version": cty.StringVal(p.Version),
	}))
}

func decodeParameterization(provider addrs.Provider, attr *hcl.Attribute) (*Parameterization, diags.Diagnostics) {
	if attr == nil {
		return nil, nil
	}
	var ds diags.Diagnostics
	invalid := func(problem string) (*Parameterization, diags.Diagnostics) {
		return nil, ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider parameterization",
			Detail:  fmt.Sprintf("The sub-package record of %s %s. Run terrane init -upgrade to record it again.", provider, problem),
			Subject: attr.Expr.Range().Ptr()})
	}
	value, hclDiags := attr.Expr.Value(nil)
	ds = ds.Append(hclDiags)
	if hclDiags.HasErrors() {
		return nil, ds
	}
	if value.Type().IsObjectType() && len(value.Type().AttributeTypes()) > len(parameterizationType.AttributeTypes()) {
		return invalid("has attributes other than args, base, name, value and version")
	}
	var fields parameterizationFields
	converted, err := convert.Convert(value, parameterizationType)
	if err == nil && (converted.IsNull() || !converted.IsWhollyKnown()) {
		err = fmt.Errorf("null")
	}
	if err == nil {
		err = gocty.FromCtyValue(converted, &fields)
	}
	if err != nil {
		return invalid("must be an object with the strings base, name, version and value and the list of strings args")
	}
	base, err := addrs.ParseProviderSource(fields.Base)
	if err != nil || base.String() != fields.Base {
		return invalid(fmt.Sprintf("names the base package %q, which is not a normalized provider address", fields.Base))
	}
	encoded, err := base64.StdEncoding.DecodeString(fields.Value)
	if err != nil {
		return invalid(fmt.Sprintf("has a value that is not base64: %s", err))
	}
	if fields.Name == "" || len(fields.Args) == 0 {
		return invalid("has no sub-package name or no args")
	}
	return &Parameterization{Base: base, Args: fields.Args, Name: fields.Name, Version: fields.Version, Value: encoded}, ds
}

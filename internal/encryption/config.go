package encryption

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
)

// EnvVariable is the environment variable holding encryption configuration
// (the encryption block's body, in HCL or JSON), merged over the code's.
const EnvVariable = "TF_ENCRYPTION"

// Config is a decoded encryption block.
type Config struct {
	KeyProviders []*KeyProviderConfig
	Methods      []*MethodConfig
	State        *TargetConfig
	Plan         *TargetConfig
	// RemoteDefault and RemoteTargets are remote_state_data_sources'
	// default block and its remote_state_data_source blocks.
	RemoteDefault *TargetConfig
	RemoteTargets map[string]*TargetConfig
	DeclRange     hcl.Range
}

// KeyProviderConfig is a key_provider block.
type KeyProviderConfig struct {
	Type, Name string
	Body       hcl.Body
	DeclRange  hcl.Range
}

// Addr is the key provider's address, key_provider.TYPE.NAME.
func (c *KeyProviderConfig) Addr() string { return "key_provider." + c.Type + "." + c.Name }

// MethodConfig is a method block.
type MethodConfig struct {
	Type, Name string
	Body       hcl.Body
	DeclRange  hcl.Range
}

// Addr is the method's address, method.TYPE.NAME.
func (c *MethodConfig) Addr() string { return "method." + c.Type + "." + c.Name }

// TargetConfig is a state, plan, default or remote_state_data_source block,
// or a fallback block inside one.
type TargetConfig struct {
	Method    hcl.Expression
	Fallback  *TargetConfig
	Enforced  bool
	DeclRange hcl.Range
}

var (
	encryptionSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "key_provider", LabelNames: []string{"type", "name"}},
		{Type: "method", LabelNames: []string{"type", "name"}},
		{Type: "state"}, {Type: "plan"}, {Type: "remote_state_data_sources"},
	}}
	enforceableTargetSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "method"}, {Name: "enforced"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "fallback"}},
	}
	targetSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "method"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "fallback"}},
	}
	remoteSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "default"}, {Type: "remote_state_data_source", LabelNames: []string{"name"}},
	}}
)

// DecodeConfig reads an encryption block's body.
func DecodeConfig(body hcl.Body, declRange hcl.Range) (*Config, hcl.Diagnostics) {
	cfg := &Config{DeclRange: declRange}
	content, diags := body.Content(encryptionSchema)
	seen := map[string]hcl.Range{}
	for _, block := range content.Blocks {
		switch block.Type {
		case "key_provider", "method":
			addr := block.Type + "." + block.Labels[0] + "." + block.Labels[1]
			if prev, dup := seen[addr]; dup {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate " + block.Type,
					Detail: fmt.Sprintf("%s was already declared at %s; each key provider and method needs its own type and name.", addr, prev), Subject: block.DefRange.Ptr()})
				continue
			}
			seen[addr] = block.DefRange
			diags = append(diags, checkName(block)...)
			if block.Type == "key_provider" {
				cfg.KeyProviders = append(cfg.KeyProviders, &KeyProviderConfig{Type: block.Labels[0], Name: block.Labels[1], Body: block.Body, DeclRange: block.DefRange})
			} else {
				cfg.Methods = append(cfg.Methods, &MethodConfig{Type: block.Labels[0], Name: block.Labels[1], Body: block.Body, DeclRange: block.DefRange})
			}
		case "state", "plan":
			target, targetDiags := decodeTarget(block, true)
			diags = append(diags, targetDiags...)
			into := &cfg.State
			if block.Type == "plan" {
				into = &cfg.Plan
			}
			diags = append(diags, setOnce(into, target, block)...)
		case "remote_state_data_sources":
			diags = append(diags, cfg.decodeRemote(block)...)
		}
	}
	return cfg, diags
}

// checkName refuses labels that cannot be referenced as
// key_provider.TYPE.NAME or method.TYPE.NAME.
func checkName(block *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for i, label := range block.Labels {
		if !hclsyntax.ValidIdentifier(label) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + block.Type + " label",
				Detail:  fmt.Sprintf("%q is not a valid identifier: it must start with a letter or underscore and contain only letters, digits, underscores and dashes.", label),
				Subject: block.LabelRanges[i].Ptr()})
		}
	}
	return diags
}

func setOnce(into **TargetConfig, target *TargetConfig, block *hcl.Block) hcl.Diagnostics {
	if *into != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Duplicate " + block.Type + " block",
			Detail: fmt.Sprintf("The %s target was already configured at %s.", block.Type, (*into).DeclRange), Subject: block.DefRange.Ptr()}}
	}
	*into = target
	return nil
}

func decodeTarget(block *hcl.Block, enforceable bool) (*TargetConfig, hcl.Diagnostics) {
	schema := targetSchema
	if enforceable {
		schema = enforceableTargetSchema
	}
	content, diags := block.Body.Content(schema)
	target := &TargetConfig{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["method"]; ok {
		target.Method = attr.Expr
	}
	if attr, ok := content.Attributes["enforced"]; ok {
		val, valDiags := attr.Expr.Value(nil)
		diags = append(diags, valDiags...)
		if !valDiags.HasErrors() {
			if val.Type() != cty.Bool || val.IsNull() {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid enforced value",
					Detail: "enforced must be true or false.", Subject: attr.Expr.Range().Ptr()})
			} else {
				target.Enforced = val.True()
			}
		}
	}
	for _, inner := range content.Blocks {
		fallback, fallbackDiags := decodeTarget(inner, false)
		diags = append(diags, fallbackDiags...)
		if target.Fallback != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate fallback block",
				Detail: "A target has at most one fallback; nest a fallback inside the fallback to add another.", Subject: inner.DefRange.Ptr()})
			continue
		}
		target.Fallback = fallback
	}
	return target, diags
}

func (c *Config) decodeRemote(block *hcl.Block) hcl.Diagnostics {
	content, diags := block.Body.Content(remoteSchema)
	for _, inner := range content.Blocks {
		target, targetDiags := decodeTarget(inner, false)
		diags = append(diags, targetDiags...)
		if inner.Type == "default" {
			diags = append(diags, setOnce(&c.RemoteDefault, target, inner)...)
			continue
		}
		name := inner.Labels[0]
		if c.RemoteTargets == nil {
			c.RemoteTargets = map[string]*TargetConfig{}
		}
		if prev, dup := c.RemoteTargets[name]; dup {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate remote_state_data_source block",
				Detail: fmt.Sprintf("remote_state_data_source %q was already configured at %s.", name, prev.DeclRange), Subject: inner.DefRange.Ptr()})
			continue
		}
		c.RemoteTargets[name] = target
	}
	return diags
}

// ParseEnv reads TF_ENCRYPTION's value: the encryption block's body in HCL,
// or in JSON when it starts with "{".
func ParseEnv(value string) (*Config, hcl.Diagnostics) {
	var file *hcl.File
	var diags hcl.Diagnostics
	if strings.HasPrefix(strings.TrimSpace(value), "{") {
		file, diags = hcljson.Parse([]byte(value), EnvVariable)
	} else {
		file, diags = hclsyntax.ParseConfig([]byte(value), EnvVariable, hcl.InitialPos)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	rng := hcl.Range{Filename: EnvVariable, Start: hcl.InitialPos, End: hcl.InitialPos}
	cfg, moreDiags := DecodeConfig(file.Body, rng)
	return cfg, append(diags, moreDiags...)
}

// Merge returns c with override laid over it, as OpenTofu merges
// TF_ENCRYPTION over the code: a key provider or method of the same type and
// name gets override's arguments over its own, others are added; a
// target's method and fallback come from override when it sets them, and
// a target is enforced when either says so.
func Merge(c, override *Config) *Config {
	if c == nil {
		return override
	}
	if override == nil {
		return c
	}
	merged := &Config{DeclRange: c.DeclRange,
		State: mergeTargets(c.State, override.State), Plan: mergeTargets(c.Plan, override.Plan),
		RemoteDefault: mergeTargets(c.RemoteDefault, override.RemoteDefault), RemoteTargets: map[string]*TargetConfig{}}
	merged.KeyProviders = mergeBlocks(c.KeyProviders, override.KeyProviders,
		func(kp *KeyProviderConfig) string { return kp.Addr() },
		func(base, over *KeyProviderConfig) *KeyProviderConfig {
			return &KeyProviderConfig{Type: base.Type, Name: base.Name, Body: config.MergeBodies(base.Body, over.Body), DeclRange: base.DeclRange}
		})
	merged.Methods = mergeBlocks(c.Methods, override.Methods,
		func(m *MethodConfig) string { return m.Addr() },
		func(base, over *MethodConfig) *MethodConfig {
			return &MethodConfig{Type: base.Type, Name: base.Name, Body: config.MergeBodies(base.Body, over.Body), DeclRange: base.DeclRange}
		})
	for name, target := range c.RemoteTargets {
		merged.RemoteTargets[name] = target
	}
	for name, target := range override.RemoteTargets {
		merged.RemoteTargets[name] = mergeTargets(merged.RemoteTargets[name], target)
	}
	return merged
}

func mergeBlocks[T any](base, override []T, key func(T) string, merge func(base, over T) T) []T {
	out := append([]T(nil), base...)
	index := map[string]int{}
	for i, item := range out {
		index[key(item)] = i
	}
	for _, item := range override {
		if i, ok := index[key(item)]; ok {
			out[i] = merge(out[i], item)
			continue
		}
		index[key(item)] = len(out)
		out = append(out, item)
	}
	return out
}

func mergeTargets(base, override *TargetConfig) *TargetConfig {
	if base == nil {
		return override
	}
	if override == nil {
		return base
	}
	merged := *base
	if override.Method != nil {
		merged.Method = override.Method
	}
	if override.Fallback != nil {
		merged.Fallback = override.Fallback
	}
	merged.Enforced = base.Enforced || override.Enforced
	return &merged
}

package encryption

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/encryption/method/unencrypted"
)

// Options is what New needs besides the configuration itself.
type Options struct {
	// Module is the root module; its encryption block is used and its
	// variables and locals may be referenced. Nil when there is no
	// configuration.
	Module *config.Module
	// Variable returns a root variable's value (the given value or its
	// default); the configuration asks only for those it references.
	Variable func(name string) (cty.Value, hcl.Diagnostics)
	// Env is TF_ENCRYPTION's value, merged over the module's block.
	Env string
	// BaseDir is where file() and path values resolve.
	BaseDir string
}

// Encryption is an encryption configuration ready to use.
type Encryption struct {
	cfg   *Config
	reg   *registry
	scope *staticScope

	state, plan, remoteDefault *Target
	remotes                    map[string]*Target
	keys                       keyCache
}

// New decodes and checks the encryption configuration of opts: the root
// module's encryption block with TF_ENCRYPTION over it. Without either,
// every target is unconfigured and data stays plain. Key providers are not
// asked for keys until data is encrypted or decrypted.
func New(opts Options) (*Encryption, hcl.Diagnostics) {
	var cfg *Config
	var diags hcl.Diagnostics
	if opts.Module != nil && opts.Module.Encryption != nil {
		cfg, diags = DecodeConfig(opts.Module.Encryption.Config, opts.Module.Encryption.DeclRange)
	}
	if opts.Env != "" {
		envCfg, envDiags := ParseEnv(opts.Env)
		diags = append(diags, envDiags...)
		cfg = Merge(cfg, envCfg)
	}
	e := &Encryption{cfg: cfg, reg: defaultRegistry(), scope: newStaticScope(opts.Module, opts.Variable, opts.BaseDir), remotes: map[string]*Target{},
		keys: keyCache{decryptions: map[string]*decryption{}, reuse: map[string]*decryption{}}}
	if cfg == nil || diags.HasErrors() {
		return e, diags
	}
	diags = append(diags, e.validate()...)
	if cfg.State != nil {
		var targetDiags hcl.Diagnostics
		e.state, targetDiags = e.newTarget("state", cfg.State)
		diags = append(diags, targetDiags...)
	}
	if cfg.Plan != nil {
		var targetDiags hcl.Diagnostics
		e.plan, targetDiags = e.newTarget("plan", cfg.Plan)
		diags = append(diags, targetDiags...)
	}
	if cfg.RemoteDefault != nil {
		var targetDiags hcl.Diagnostics
		e.remoteDefault, targetDiags = e.newTarget("remote_state_data_sources.default", cfg.RemoteDefault)
		diags = append(diags, targetDiags...)
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.RemoteTargets)) {
		target, targetDiags := e.newTarget(fmt.Sprintf("remote_state_data_sources.remote_state_data_source[%q]", name), cfg.RemoteTargets[name])
		diags = append(diags, targetDiags...)
		e.remotes[name] = target
	}
	return e, diags
}

// validate decodes every key provider and method without asking for keys,
// so that a mistake is reported before any data is touched, and warns when
// the unencrypted method is configured.
func (e *Encryption) validate() hcl.Diagnostics {
	var diags hcl.Diagnostics
	ev := e.newEvaluation(context.Background(), validating, nil)
	aliases := map[string]string{}
	for _, kp := range e.cfg.KeyProviders {
		_, key, keyDiags := e.metaKey(kp)
		diags = append(diags, keyDiags...)
		if other, dup := aliases[key]; dup && !keyDiags.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate key provider metadata key",
				Detail:  fmt.Sprintf("%s and %s would both store their metadata under %q; give them different encrypted_metadata_alias values.", other, kp.Addr(), key),
				Subject: kp.DeclRange.Ptr()})
		}
		aliases[key] = kp.Addr()
		_, kpDiags := ev.provider(kp)
		diags = append(diags, kpDiags...)
	}
	for _, mc := range e.cfg.Methods {
		_, mDiags := ev.method(mc)
		diags = append(diags, mDiags...)
		if mc.Type == unencrypted.Name {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Unencrypted method configured",
				Detail:  fmt.Sprintf("%s lets state or plans be read or written without encryption. This is a security risk: use it only while migrating to or from encryption, then remove it.", mc.Addr()),
				Subject: mc.DeclRange.Ptr()})
		}
	}
	return dedupe(diags)
}

// dedupe drops repeated diagnostics: a key provider several methods use
// reports its problem once.
func dedupe(diags hcl.Diagnostics) hcl.Diagnostics {
	seen := map[string]bool{}
	var out hcl.Diagnostics
	for _, d := range diags {
		key := d.Summary + "\x00" + d.Detail
		if d.Subject != nil {
			key += "\x00" + d.Subject.String()
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	return out
}

// metaKey returns kp's body without encrypted_metadata_alias and the key
// its metadata is stored under: the alias, or its address.
func (e *Encryption) metaKey(kp *KeyProviderConfig) (hcl.Body, string, hcl.Diagnostics) {
	content, rest, diags := kp.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "encrypted_metadata_alias"}}})
	attr, ok := content.Attributes["encrypted_metadata_alias"]
	if !ok || diags.HasErrors() {
		return rest, kp.Addr(), diags
	}
	ctx, _, ctxDiags := e.scope.evalContext(attr.Expr.Variables(), false)
	diags = append(diags, ctxDiags...)
	if diags.HasErrors() {
		return rest, kp.Addr(), diags
	}
	val, valDiags := attr.Expr.Value(ctx)
	diags = append(diags, valDiags...)
	val, _ = val.UnmarkDeep()
	if valDiags.HasErrors() || val.Type() != cty.String || val.IsNull() || val.AsString() == "" {
		return rest, kp.Addr(), append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid encrypted_metadata_alias",
			Detail: "encrypted_metadata_alias must be a non-empty string.", Subject: attr.Expr.Range().Ptr()})
	}
	return rest, val.AsString(), diags
}

func (e *Encryption) keyProvider(typ, name string) *KeyProviderConfig {
	for _, kp := range e.cfg.KeyProviders {
		if kp.Type == typ && kp.Name == name {
			return kp
		}
	}
	return nil
}

// State is the state target: it encrypts records and reads encrypted state
// files; nil when state is not encrypted.
func (e *Encryption) State() *Target { return e.state }

// Plan is the plan target; nil when plan files are not encrypted.
func (e *Encryption) Plan() *Target { return e.plan }

// RemoteState is the target that decrypts what the terraform_remote_state
// data source with the given selector reads: its own
// remote_state_data_source block or the default; nil when there is none.
// Selectors are tried in order, most specific first.
func (e *Encryption) RemoteState(selectors ...string) *Target {
	for _, selector := range selectors {
		if target, ok := e.remotes[selector]; ok {
			return target
		}
	}
	return e.remoteDefault
}

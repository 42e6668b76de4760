package encryption

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/encryption/keyprovider"
	"github.com/terrane/terrane/internal/encryption/method"
)

// mode is what a key evaluation computes keys for.
type mode int

const (
	// validating decodes and checks every block without asking any key
	// provider for a key: key values are unknown.
	validating mode = iota
	// encrypting asks each key provider for a new encryption key and the
	// metadata to store with the data.
	encrypting
	// decrypting asks each key provider for the decryption key that the
	// stored metadata gives.
	decrypting
	// reusing is decrypting whose keys then encrypt new data under the same
	// metadata, for key providers that allow it (keyprovider.Reusable).
	reusing
)

// keyEvaluation evaluates key providers and methods for one purpose: one
// mode and, when decrypting, one set of stored metadata. It caches what it
// computed; it is not safe for concurrent use.
type keyEvaluation struct {
	enc     *Encryption
	mode    mode
	ctx     context.Context
	meta    map[string][]byte
	outMeta map[string][]byte

	values      map[string]cty.Value
	failed      map[string]hcl.Diagnostics
	methods     map[string]method.Method
	methodDiags map[string]hcl.Diagnostics
	stack       []string
	// notReusable is set, when reusing, by a key provider that cannot give
	// its decryption key as an encryption key.
	notReusable bool
	// decKeys are the decryption keys given, by metadata key; when reusing,
	// from holds those of the decryption being reused, so that no key is
	// derived or fetched twice.
	decKeys map[string][]byte
	from    map[string][]byte
	// encKeys are the encryption keys given, when encrypting, by key
	// providers whose decryption key for the metadata given with them is
	// the same key: reading back what this run wrote needs no new key.
	encKeys map[string][]byte
}

func (e *Encryption) newEvaluation(ctx context.Context, m mode, meta map[string][]byte) *keyEvaluation {
	return &keyEvaluation{enc: e, mode: m, ctx: ctx, meta: meta, outMeta: map[string][]byte{},
		values: map[string]cty.Value{}, failed: map[string]hcl.Diagnostics{}, decKeys: map[string][]byte{}, encKeys: map[string][]byte{},
		methods: map[string]method.Method{}, methodDiags: map[string]hcl.Diagnostics{}}
}

// method builds the method mc with the keys this evaluation gives.
func (ev *keyEvaluation) method(mc *MethodConfig) (method.Method, hcl.Diagnostics) {
	addr := mc.Addr()
	if m, done := ev.methods[addr]; done || ev.methodDiags[addr] != nil {
		return m, ev.methodDiags[addr]
	}
	m, diags := ev.buildMethod(mc)
	ev.methods[addr], ev.methodDiags[addr] = m, diags
	return m, diags
}

func (ev *keyEvaluation) buildMethod(mc *MethodConfig) (method.Method, hcl.Diagnostics) {
	typ := ev.enc.reg.methods[mc.Type]
	if typ == nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unknown encryption method type",
			Detail: ev.enc.reg.unknownMethod(mc.Type), Subject: mc.DeclRange.Ptr()}}
	}
	val, diags := ev.decodeBody(mc.Body, typ.Spec())
	if diags.HasErrors() {
		return nil, diags
	}
	m, err := typ.Build(val)
	if err != nil {
		return nil, append(diags, configDiag("Invalid encryption method", mc.Addr(), mc.Body, mc.DeclRange, err))
	}
	return m, diags
}

// decodeBody evaluates a key provider's or method's body, resolving the key
// providers it references first.
func (ev *keyEvaluation) decodeBody(body hcl.Body, spec hcldec.Spec) (cty.Value, hcl.Diagnostics) {
	ctx, refs, diags := ev.enc.scope.evalContext(hcldec.Variables(body, spec), true)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	byType := map[string]map[string]cty.Value{}
	for _, ref := range refs {
		kp := ev.enc.keyProvider(ref.Type, ref.Name)
		if kp == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared key provider",
				Detail:  fmt.Sprintf("There is no key_provider %q %q block in the encryption configuration.", ref.Type, ref.Name),
				Subject: ref.Range.Ptr()})
			continue
		}
		val, kpDiags := ev.provider(kp)
		diags = append(diags, kpDiags...)
		if byType[ref.Type] == nil {
			byType[ref.Type] = map[string]cty.Value{}
		}
		byType[ref.Type][ref.Name] = val
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if len(byType) > 0 {
		types := map[string]cty.Value{}
		for name, providers := range byType {
			types[name] = cty.ObjectVal(providers)
		}
		ctx.Variables["key_provider"] = cty.ObjectVal(types)
	}
	val, valDiags := hcldec.Decode(body, spec, ctx)
	diags = append(diags, valDiags...)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	// Sensitive variables arrive marked; the key types read plain values.
	val, _ = val.UnmarkDeep()
	return val, diags
}

// provider returns the keys of key provider kp as the object methods and
// other key providers reference, computing them once.
func (ev *keyEvaluation) provider(kp *KeyProviderConfig) (cty.Value, hcl.Diagnostics) {
	addr := kp.Addr()
	if val, done := ev.values[addr]; done {
		return val, ev.failed[addr]
	}
	if slices.Contains(ev.stack, addr) {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cycle between key providers",
			Detail: fmt.Sprintf("%s refers to itself through %v.", addr, ev.stack), Subject: kp.DeclRange.Ptr()}}
	}
	ev.stack = append(ev.stack, addr)
	val, diags := ev.computeProvider(kp)
	ev.stack = ev.stack[:len(ev.stack)-1]
	ev.values[addr] = val
	if diags.HasErrors() {
		ev.failed[addr] = diags
	}
	return val, diags
}

func (ev *keyEvaluation) computeProvider(kp *KeyProviderConfig) (cty.Value, hcl.Diagnostics) {
	typ := ev.enc.reg.keyProviders[kp.Type]
	if typ == nil {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unknown key provider type",
			Detail: ev.enc.reg.unknownKeyProvider(kp.Type), Subject: kp.DeclRange.Ptr()}}
	}
	body, metaKey, diags := ev.enc.metaKey(kp)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	config, moreDiags := ev.decodeBody(body, typ.Spec())
	diags = append(diags, moreDiags...)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	provider, err := typ.Build(config)
	if err != nil {
		return cty.DynamicVal, append(diags, configDiag("Invalid key provider", kp.Addr(), body, kp.DeclRange, err))
	}
	out, err := ev.keys(provider, metaKey)
	if err != nil {
		return cty.DynamicVal, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Key provider failed",
			Detail: fmt.Sprintf("%s could not give a key: %s.", kp.Addr(), err), Subject: kp.DeclRange.Ptr()})
	}
	return out, diags
}

// keys asks provider for what this evaluation's mode needs.
func (ev *keyEvaluation) keys(provider keyprovider.Provider, metaKey string) (cty.Value, error) {
	switch ev.mode {
	case encrypting:
		key, meta, err := provider.EncryptionKey(ev.ctx)
		if err != nil {
			return cty.DynamicVal, err
		}
		if meta != nil {
			ev.outMeta[metaKey] = meta
		}
		if reusable, ok := provider.(keyprovider.Reusable); ok && reusable.ReusableFor(meta, key) {
			ev.encKeys[metaKey] = key
		}
		return keyprovider.Output{EncryptionKey: key}.Value(), nil
	case decrypting, reusing:
		stored := ev.meta[metaKey]
		key, known := ev.from[metaKey]
		var err error
		if !known {
			key, err = provider.DecryptionKey(ev.ctx, stored)
		}
		if errors.Is(err, keyprovider.ErrNoMetadata) {
			ev.notReusable = true
			return keyprovider.Output{}.Value(), nil
		}
		if err != nil {
			return cty.DynamicVal, err
		}
		ev.decKeys[metaKey] = key
		if ev.mode == decrypting {
			return keyprovider.Output{DecryptionKey: key}.Value(), nil
		}
		if reusable, ok := provider.(keyprovider.Reusable); !ok || !reusable.ReusableFor(stored, key) {
			ev.notReusable = true
		}
		ev.outMeta[metaKey] = stored
		return keyprovider.Output{EncryptionKey: key, DecryptionKey: key}.Value(), nil
	default:
		return cty.UnknownVal(keyprovider.OutputType), nil
	}
}

// configDiag reports a key provider's or method's invalid arguments,
// pointing at the argument at fault when the error names one.
func configDiag(summary, addr string, body hcl.Body, declRange hcl.Range, err error) *hcl.Diagnostic {
	subject := declRange.Ptr()
	var configErr *keyprovider.ConfigError
	if errors.As(err, &configErr) {
		subject = keyprovider.Subject(body, configErr.Attribute, declRange)
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary,
		Detail: fmt.Sprintf("%s: %s.", addr, err), Subject: subject}
}

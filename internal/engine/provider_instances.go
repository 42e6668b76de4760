package engine

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
)

// runProvider configures a provider configuration: one process, or, for
// a configuration with OpenTofu's for_each, one process per instance, each
// configured with its own each.key and each.value.
func (w *walker) runProvider(v *providerVertex) diags.Diagnostics {
	if _, ok := w.providers.schemas.Providers[v.addr.Provider]; !ok {
		return nil // its schema could not be loaded; reported already
	}
	inst := addrs.RootModuleInstance
	if insts := w.values.moduleInstancesOf(v.module.Path); len(insts) > 0 {
		inst = insts[0]
	}
	if v.block == nil || v.block.ForEach == nil {
		return w.configureProviderInstance(v, inst, addrs.NoKey, repetition{})
	}
	scope := w.scopeIn(v.module, inst, repetition{}, nil)
	// Provider instances must be known to plan anything with them, so an
	// unknown for_each is an error even during planning.
	elems, known, hd := scope.EvalForEach(v.block.ForEach, lang.Unknowns{})
	ds := diags.Diagnostics{}.Append(hd)
	if ds.HasErrors() || !known {
		return ds
	}
	keys := sortedKeys(elems)
	w.providers.setInstanceKeys(v.addr, keys)
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for _, k := range keys {
		rep := repetition{eachKey: cty.StringVal(k), eachValue: elems[k]}
		wg.Go(func() {
			d := w.configureProviderInstance(v, inst, addrs.StringKey(k), rep)
			mu.Lock()
			ds = ds.Append(d)
			mu.Unlock()
		})
	}
	wg.Wait()
	return ds
}

func (w *walker) configureProviderInstance(v *providerVertex, inst addrs.ModuleInstance, key addrs.InstanceKey, rep repetition) diags.Diagnostics {
	cfgVal := cty.EmptyObjectVal
	var cfgBody hcl.Body
	if v.block != nil {
		cfgBody = v.block.Config
		body := w.providerBody(v.addr.Provider, v.block.Config)
		val, hd := w.scopeIn(v.module, inst, rep, nil).EvalBlock(body.body, body.spec)
		if hd.HasErrors() {
			return diags.Diagnostics{}.Append(hd)
		}
		cfgVal = val
	} else if s, ok := w.providers.schemas.ProviderConfig(v.addr.Provider); ok && s.Block != nil {
		cfgVal = s.Block.EmptyValue()
	}
	configInst := addrs.AbsProviderConfigInstance{Config: v.addr, Key: key}
	if w.op == walkEval {
		// OpenTofu's eval walk starts providers for their schemas and
		// functions without configuring them.
		return w.providers.startUnconfigured(w.ctx, configInst)
	}
	return w.providers.configure(w.ctx, configInst, cfgVal, cfgBody)
}

// setInstanceKeys remembers the instances of a configuration with
// for_each, for messages about a missing one.
func (s *providerSet) setInstanceKeys(addr addrs.AbsProviderConfig, keys []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.instanceKeys == nil {
		s.instanceKeys = map[string][]string{}
	}
	s.instanceKeys[addr.String()] = keys
}

func (s *providerSet) keysOf(addr addrs.AbsProviderConfig) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.instanceKeys[addr.String()]
}

// keyedProvider reports whether a resource selects its provider instance
// per resource instance: provider = NAME.ALIAS[KEY].
func keyedProvider(work *resourceWork) hcl.Expression {
	return keyedProviderRef(work.v.resource)
}

func keyedProviderRef(r *config.Resource) hcl.Expression {
	if ref := r.ProviderConfigRef; ref != nil {
		return ref.KeyExpr
	}
	return nil
}

// withInstanceProvider returns the work of one instance of a resource
// whose provider is chosen per instance: the key expression evaluated in
// the instance's own scope (each.key, count.index) selects the provider
// instance. Work of other resources is returned as it is.
func (w *walker) withInstanceProvider(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) (*resourceWork, diags.Diagnostics) {
	keyExpr := keyedProvider(work)
	scope := func() *lang.Scope { return w.scopeIn(work.v.module, addr.Module, rep, nil) }
	if keyExpr == nil {
		// A module call may pass the module one instance of a provider
		// configuration with for_each: the key is evaluated where the call
		// is, for the module instance the resource is in.
		passedKey, depth := passedProviderKey(work.v.module, work.v.resource.ProviderConfigAddr())
		if passedKey == nil || depth > len(addr.Module) {
			return work, nil
		}
		keyExpr = passedKey
		caller, callerInst := work.v.module, addr.Module[:depth]
		for len(caller.Path) > depth-1 {
			caller = caller.Parent
		}
		scope = func() *lang.Scope {
			return w.scopeIn(caller, callerInst.Parent(), w.values.moduleRepetition(callerInst), nil)
		}
	}
	key, ds := w.providerInstanceKey(scope(), keyExpr, addr)
	if ds.HasErrors() {
		return nil, ds
	}
	inst := addrs.AbsProviderConfigInstance{Config: work.v.provider, Key: key}
	p := w.providers.forResource(addrs.ConfigResource{Module: work.v.module.Path, Resource: work.v.resource.Addr()}, w.providers.getInstance(inst))
	if p == nil {
		return nil, ds.Append(w.missingProviderInstance(work, inst, addr, keyExpr.Range()))
	}
	instWork := *work
	instWork.provider = p
	return &instWork, ds
}

// providerInstanceKey evaluates a provider key expression, which must give
// a known, non-sensitive string (numbers and bools are converted).
func (w *walker) providerInstanceKey(scope *lang.Scope, keyExpr hcl.Expression, addr addrs.AbsResourceInstance) (addrs.InstanceKey, diags.Diagnostics) {
	val, hd := scope.EvalExpr(keyExpr, cty.DynamicPseudoType)
	ds := diags.Diagnostics{}.Append(hd)
	if hd.HasErrors() {
		return nil, ds
	}
	invalid := func(detail string) diags.Diagnostics {
		return ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid provider instance key", Detail: detail,
			Subject: keyExpr.Range().Ptr(), Address: addr.String()})
	}
	if val.HasMark(marks.Sensitive) {
		return nil, invalid("A provider instance key must not be derived from a sensitive value.")
	}
	if val.HasMark(marks.Ephemeral) {
		return nil, invalid("A provider instance key must not be derived from an ephemeral value: it is recorded with every object the instance manages.")
	}
	switch {
	case val.IsNull():
		return nil, invalid("A provider instance key must not be null.")
	case !val.IsKnown():
		return nil, invalid(fmt.Sprintf("The provider instance key for %s depends on values that cannot be determined until apply, so no provider instance can be selected to plan it. Use a key known during planning, such as each.key.", addr))
	}
	str, err := convert.Convert(val, cty.String)
	if err != nil {
		return nil, invalid(fmt.Sprintf("The given instance key is unsuitable: %s.", err))
	}
	return addrs.StringKey(str.AsString()), ds
}

func (w *walker) missingProviderInstance(work *resourceWork, inst addrs.AbsProviderConfigInstance, addr addrs.AbsResourceInstance, rng hcl.Range) diags.Diagnostic {
	keys := w.providers.keysOf(inst.Config)
	quoted := make([]string, len(keys))
	for i, k := range keys {
		quoted[i] = fmt.Sprintf("%q", k)
	}
	have := "none"
	if len(quoted) > 0 {
		have = strings.Join(quoted, ", ")
	}
	return diags.Diagnostic{Severity: diags.Error, Summary: "Provider instance not present",
		Detail: fmt.Sprintf("%s uses provider instance %s, which the provider configuration's for_each does not produce (its keys: %s). "+
			"Add the key to the provider's for_each, or select an existing instance. To destroy an object whose provider instance was removed, "+
			"destroy the object first and remove the provider instance afterwards.", addr, inst, have),
		Subject: rng.Ptr(), Address: addr.String()}
}

// orphanRepetition is what each.key and count.index mean for an instance
// that is only in state, so a resource's provider key expression can
// still select the instance it was created with when it reads only them.
func orphanRepetition(key addrs.InstanceKey) repetition {
	switch k := key.(type) {
	case addrs.StringKey:
		return repetition{eachKey: cty.StringVal(string(k)), eachValue: cty.DynamicVal}
	case addrs.IntKey:
		return repetition{countIndex: cty.NumberIntVal(int64(k))}
	}
	return repetition{}
}

// passedProviderKey finds, for a block in module using the local provider
// configuration local, the instance key a module call on the way up gives
// the configuration it passes in (providers = { tpf = tpf.env[each.key] }),
// and the depth of the module that call makes; nil when none does.
func passedProviderKey(module *config.Config, local addrs.LocalProviderConfig) (hcl.Expression, int) {
	provider := module.Module.ProviderForLocalName(local.LocalName)
	for c := module; c.Parent != nil; c = c.Parent {
		if c.HasOwnProviderConfig(local) {
			return nil, 0
		}
		call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		passed := false
		if call != nil {
			for _, pp := range call.Providers {
				if pp.InChild.LocalName == local.LocalName && pp.InChild.Alias == local.Alias {
					if pp.InParentKey != nil {
						return pp.InParentKey, len(c.Path)
					}
					local, passed = pp.InParent, true
					break
				}
			}
		}
		if !passed {
			if local.Alias != "" {
				return nil, 0
			}
			local = addrs.LocalProviderConfig{LocalName: localNameFor(c.Parent.Module, provider)}
		}
		provider = c.Parent.Module.ProviderForLocalName(local.LocalName)
	}
	return nil, 0
}

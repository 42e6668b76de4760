package command

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/planfile"
	"github.com/terrane/terrane/internal/providers"
)

// savePlan writes plan to path with the configuration it was made from and
// the dependency lock file, so apply can carry it out exactly.
func (op *operation) savePlan(plan *plans.Plan, path string) diags.Diagnostics {
	snapshot, err := configSnapshot(op.Config)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to save the plan", "Reading the configuration for the plan file: %s.", err)}
	}
	if err := plan.EncodeValuesAsMsgpack(changeValueTypes(op.Engine.Schemas())); err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to save the plan", "%s. Make a new plan with the providers this configuration uses now.", err)}
	}
	if err := planfile.CreateSealed(path, planfile.Contents{Plan: plan, Config: snapshot, LockFile: op.LockFile}, planSeal(op.Encryption)); err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to save the plan", "Writing %s: %s. Check that its directory exists and is writable.", path, err)}
	}
	if !op.Encryption.State().WritesPlain() && op.Encryption.Plan().WritesPlain() {
		return diags.Diagnostics{diags.Warnf("Plan file not encrypted",
			"State is encrypted, but %s is not: a plan file holds the values of the state it was made from and of the planned changes. Configure the plan target of the encryption block to encrypt plan files too.", path)}
	}
	return nil
}

// changeValueTypes gives a resource instance change's value types from its
// provider's schema, working each resource type's out once.
func changeValueTypes(schemas *providers.Schemas) plans.ValueTypes {
	known := map[string]plans.ObjectTypes{}
	return func(change *plans.ResourceInstanceChangeSrc) (plans.ObjectTypes, error) {
		provider, resource := change.ProviderAddr.Config.Provider, change.Addr.Resource.Resource
		isData := resource.Mode == addrs.DataResourceMode
		key := fmt.Sprintf("%s %t %s", provider, isData, resource.Type)
		if types, ok := known[key]; ok {
			return types, nil
		}
		s, ok := schemas.ResourceType(provider, isData, resource.Type)
		if !ok {
			return plans.ObjectTypes{}, fmt.Errorf("provider %s has no schema for resource type %q", provider, resource.Type)
		}
		types := plans.ObjectTypes{Value: s.Block.ImpliedType(), Identity: cty.NilType}
		if identity, ok := schemas.Identity(provider, resource.Type); ok && !isData {
			types.Identity = identity.ImpliedType()
		}
		known[key] = types
		return types, nil
	}
}

// configSnapshot reads every module's files into a snapshot keyed as plan
// files key modules: "" for the root, "a.b" for module.b inside module.a.
func configSnapshot(cfg *config.Config) (*planfile.ConfigSnapshot, error) {
	snapshot := &planfile.ConfigSnapshot{Modules: map[string]*planfile.SnapshotModule{}}
	var firstErr error
	cfg.DeepEach(func(c *config.Config) {
		if firstErr != nil {
			return
		}
		firstErr = snapshot.AddModuleDir(strings.Join(c.Path, "."), c.SourceAddr, "", c.Module.SourceDir)
	})
	return snapshot, firstErr
}

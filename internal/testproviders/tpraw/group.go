package tpraw

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

func (s *Server) ValidateResourceConfig(_ context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	if req.TypeName != groupType {
		return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: wrongType(req.TypeName)}, nil
	}
	if _, err := decode(req.Config, groupCtyType); err != nil {
		return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: errorDiag("Invalid configuration", err)}, nil
	}
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

func (s *Server) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	if req.TypeName != groupType {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: wrongType(req.TypeName)}, nil
	}
	if req.RawState == nil || len(req.RawState.JSON) == 0 {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errorDiag("Cannot upgrade state", errors.New("the raw state has no JSON"))}, nil
	}
	state, err := ctyjson.Unmarshal(req.RawState.JSON, groupCtyType)
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errorDiag("Cannot upgrade state", err)}, nil
	}
	upgraded, err := encode(state, groupCtyType)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: upgraded}, nil
}

// PlanResourceChange accepts the proposed new state, keeping id and arn
// from the prior state; on create both are unknown, and arn is refined as
// "not null, starts with arn:tpraw:".
func (s *Server) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	if req.TypeName != groupType {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: wrongType(req.TypeName)}, nil
	}
	prior, err := decode(req.PriorState, groupCtyType)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errorDiag("Invalid prior state", err)}, nil
	}
	proposed, err := decode(req.ProposedNewState, groupCtyType)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errorDiag("Invalid proposed new state", err)}, nil
	}
	planned := proposed
	if !proposed.IsNull() {
		attrs := proposed.AsValueMap()
		if prior.IsNull() {
			attrs["id"] = cty.UnknownVal(cty.String).RefineNotNull()
			attrs["arn"] = cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull(arnPrefix).NewValue()
		} else {
			attrs["id"], attrs["arn"] = prior.GetAttr("id"), prior.GetAttr("arn")
		}
		planned = cty.ObjectVal(attrs)
	}
	plannedValue, err := encode(planned, groupCtyType)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: plannedValue, PlannedPrivate: req.PriorPrivate}, nil
}

func (s *Server) ApplyResourceChange(_ context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	if req.TypeName != groupType {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: wrongType(req.TypeName)}, nil
	}
	if s.cloud == nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errorDiag("Provider not configured", errors.New("configure root_dir or $"+cloud.EnvRoot))}, nil
	}
	prior, err := decode(req.PriorState, groupCtyType)
	if err == nil && prior.IsNull() {
		prior = cty.NullVal(groupCtyType)
	}
	planned, plannedErr := decode(req.PlannedState, groupCtyType)
	if err := errors.Join(err, plannedErr); err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errorDiag("Invalid apply request", err)}, nil
	}
	if planned.IsNull() {
		if err := s.cloud.Delete(groupType, prior.GetAttr("id").AsString()); err != nil {
			return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errorDiag("Cannot delete", err)}, nil
		}
		newState, _ := encode(planned, groupCtyType)
		return &tfprotov6.ApplyResourceChangeResponse{NewState: newState}, nil
	}
	attrs := planned.AsValueMap()
	if !attrs["id"].IsKnown() {
		id := cloud.NewID()
		attrs["id"], attrs["arn"] = cty.StringVal(id), cty.StringVal(arnPrefix+id)
	}
	newState := cty.ObjectVal(attrs)
	if err := s.store(newState); err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errorDiag("Cannot write the cloud object", err)}, nil
	}
	encoded, err := encode(newState, groupCtyType)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ApplyResourceChangeResponse{NewState: encoded, Private: req.PlannedPrivate}, nil
}

func (s *Server) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	if req.TypeName != groupType {
		return &tfprotov6.ReadResourceResponse{Diagnostics: wrongType(req.TypeName)}, nil
	}
	if s.cloud == nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: errorDiag("Provider not configured", errors.New("configure root_dir or $"+cloud.EnvRoot))}, nil
	}
	current, err := decode(req.CurrentState, groupCtyType)
	if err != nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: errorDiag("Invalid current state", err)}, nil
	}
	state, err := s.load(current.GetAttr("id").AsString())
	if err != nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: errorDiag("Cannot read the cloud object", err)}, nil
	}
	encoded, err := encode(state, groupCtyType)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ReadResourceResponse{NewState: encoded, Private: req.Private}, nil
}

// ImportResourceState returns a state holding only the id (and the
// GROUP block's empty object, which is never null); the read that follows
// fills in the rest.
func (s *Server) ImportResourceState(_ context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	if req.TypeName != groupType {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: wrongType(req.TypeName)}, nil
	}
	attrs := map[string]cty.Value{}
	for name, ty := range groupCtyType.AttributeTypes() {
		attrs[name] = cty.NullVal(ty)
	}
	attrs["id"] = cty.StringVal(req.ID)
	attrs["network"] = cty.ObjectVal(map[string]cty.Value{"cidr": cty.NullVal(cty.String), "mode": cty.NullVal(cty.String)})
	encoded, err := encode(cty.ObjectVal(attrs), groupCtyType)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ImportResourceStateResponse{ImportedResources: []*tfprotov6.ImportedResource{{TypeName: groupType, State: encoded}}}, nil
}

func (s *Server) store(state cty.Value) error {
	data, err := ctyjson.Marshal(state, groupCtyType)
	if err != nil {
		return err
	}
	return s.cloud.PutRaw(groupType, state.GetAttr("id").AsString(), data)
}

// load returns the stored object, or a null value when it is gone.
func (s *Server) load(id string) (cty.Value, error) {
	data, err := s.cloud.GetRaw(groupType, id)
	if errors.Is(err, cloud.ErrNotFound) {
		return cty.NullVal(groupCtyType), nil
	}
	if err != nil {
		return cty.NilVal, err
	}
	state, err := ctyjson.Unmarshal(data, groupCtyType)
	if err != nil {
		return cty.NilVal, fmt.Errorf("%s: %w", s.cloud.Path(groupType, id), err)
	}
	return state, nil
}

package planfile

import (
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/proto/tfplan"
)

// The model's enumerations and their tfplan counterparts, in one table each
// so that writing and reading cannot disagree.

var actionsToProto = map[plans.Action]tfplan.Action{
	plans.NoOp:             tfplan.Action_NOOP,
	plans.Create:           tfplan.Action_CREATE,
	plans.Read:             tfplan.Action_READ,
	plans.Update:           tfplan.Action_UPDATE,
	plans.Delete:           tfplan.Action_DELETE,
	plans.DeleteThenCreate: tfplan.Action_DELETE_THEN_CREATE,
	plans.CreateThenDelete: tfplan.Action_CREATE_THEN_DELETE,
	plans.Forget:           tfplan.Action_FORGET,
	plans.CreateThenForget: tfplan.Action_CREATE_THEN_FORGET,
	plans.ForgetThenCreate: tfplan.Action_FORGET_THEN_CREATE,
}

var reasonsToProto = map[plans.ActionReason]tfplan.ResourceInstanceActionReason{
	plans.ReasonNone:                            tfplan.ResourceInstanceActionReason_NONE,
	plans.ReplaceBecauseTainted:                 tfplan.ResourceInstanceActionReason_REPLACE_BECAUSE_TAINTED,
	plans.ReplaceByRequest:                      tfplan.ResourceInstanceActionReason_REPLACE_BY_REQUEST,
	plans.ReplaceByTriggers:                     tfplan.ResourceInstanceActionReason_REPLACE_BY_TRIGGERS,
	plans.ReplaceBecauseCannotUpdate:            tfplan.ResourceInstanceActionReason_REPLACE_BECAUSE_CANNOT_UPDATE,
	plans.DeleteBecauseNoResourceConfig:         tfplan.ResourceInstanceActionReason_DELETE_BECAUSE_NO_RESOURCE_CONFIG,
	plans.DeleteBecauseWrongRepetition:          tfplan.ResourceInstanceActionReason_DELETE_BECAUSE_WRONG_REPETITION,
	plans.DeleteBecauseCountIndex:               tfplan.ResourceInstanceActionReason_DELETE_BECAUSE_COUNT_INDEX,
	plans.DeleteBecauseEachKey:                  tfplan.ResourceInstanceActionReason_DELETE_BECAUSE_EACH_KEY,
	plans.DeleteBecauseNoModule:                 tfplan.ResourceInstanceActionReason_DELETE_BECAUSE_NO_MODULE,
	plans.DeleteBecauseNoMoveTarget:             tfplan.ResourceInstanceActionReason_DELETE_BECAUSE_NO_MOVE_TARGET,
	plans.DeleteBecauseEnabledFalse:             tfplan.ResourceInstanceActionReason_DELETE_BECAUSE_ENABLED_FALSE,
	plans.ReadBecauseConfigUnknown:              tfplan.ResourceInstanceActionReason_READ_BECAUSE_CONFIG_UNKNOWN,
	plans.ReadBecauseDependencyPending:          tfplan.ResourceInstanceActionReason_READ_BECAUSE_DEPENDENCY_PENDING,
	plans.ReadBecauseCheckNested:                tfplan.ResourceInstanceActionReason_READ_BECAUSE_CHECK_NESTED,
	plans.ForgotBecauseLifecycleDestroyInState:  tfplan.ResourceInstanceActionReason_FORGOT_BECAUSE_LIFECYCLE_DESTROY_IN_STATE,
	plans.ForgotBecauseLifecycleDestroyInConfig: tfplan.ResourceInstanceActionReason_FORGOT_BECAUSE_LIFECYCLE_DESTROY_IN_CONFIG,
}

var modesToProto = map[plans.Mode]tfplan.Mode{
	plans.NormalMode:      tfplan.Mode_NORMAL,
	plans.DestroyMode:     tfplan.Mode_DESTROY,
	plans.RefreshOnlyMode: tfplan.Mode_REFRESH_ONLY,
}

var (
	actionsFromProto = invert(actionsToProto)
	reasonsFromProto = invert(reasonsToProto)
	modesFromProto   = invert(modesToProto)
)

func invert[K, V comparable](m map[K]V) map[V]K {
	out := make(map[V]K, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

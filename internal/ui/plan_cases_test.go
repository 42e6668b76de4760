package ui

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
)

// planCases build the plans whose renderings are kept as golden files in
// testdata/plans, one per behaviour a user sees.
var planCases = map[string]func(t *testing.T) *plans.Plan{
	"create_everything":      createEverything,
	"update_nested":          updateNested,
	"replace_forced_by_path": replaceForcedByPath,
	"sensitive":              sensitiveChanges,
	"data_read":              dataRead,
	"drift":                  drift,
	"refresh_only":           refreshOnly,
	"refresh_only_no_drift":  refreshOnlyNoDrift,
	"moved_imported_forgot":  movedImportedForgotten,
	"deposed_and_reasons":    deposedAndReasons,
	"destroy_nothing":        destroyNothing,
	"errored":                errored,
}

var nullThing = cty.NullVal(thingSchema.ImpliedType())

func planOf(changes ...*plans.ResourceInstanceChangeSrc) *plans.Plan {
	plan := &plans.Plan{}
	plan.Changes.Resources = changes
	return plan
}

func fullThing(t *testing.T, id cty.Value) cty.Value {
	return thing(t, map[string]cty.Value{
		"id": id, "name": str("web"), "size": num(2), "enabled": cty.True, "password": str("hunter2"),
		"tags":     obj(map[string]cty.Value{"env": str("prod"), "team": str("core")}),
		"ports":    tuple(num(80), num(443)),
		"zones":    tuple(str("a"), str("b")),
		"settings": obj(map[string]cty.Value{"mode": str("fast"), "secret": str("s3")}),
		"disks":    tuple(obj(map[string]cty.Value{"kind": str("ssd"), "size": num(10)})),
		"rules":    tuple(obj(map[string]cty.Value{"port": num(22), "proto": str("tcp")})),
		"envs":     obj(map[string]cty.Value{"PATH": obj(map[string]cty.Value{"value": str("/bin")})}),
		"network":  tuple(obj(map[string]cty.Value{"cidr": str("10.0.0.0/16"), "label": str("main")})),
		"mount":    tuple(obj(map[string]cty.Value{"path": str("/data"), "read_only": cty.False})),
		"timeouts": obj(map[string]cty.Value{"create": str("5m")}),
		"listener": obj(map[string]cty.Value{"http": obj(map[string]cty.Value{"port": num(80)})}),
	})
}

func createEverything(t *testing.T) *plans.Plan {
	return planOf(resourceChange(t, "tpf_thing.web", plans.Create, nullThing, fullThing(t, cty.UnknownVal(cty.String))))
}

func updateNested(t *testing.T) *plans.Plan {
	before := fullThing(t, str("i-123"))
	after := thing(t, map[string]cty.Value{
		"id": str("i-123"), "name": str("web"), "size": num(3), "enabled": cty.True, "password": str("hunter2"),
		"tags":     obj(map[string]cty.Value{"env": str("staging"), "team": str("core"), "owner": str("ops")}),
		"ports":    tuple(num(80), num(8080), num(443)),
		"zones":    tuple(str("a"), str("c")),
		"policy":   str("{\"Version\":\"2012-10-17\",\"Statement\":[]}"),
		"settings": obj(map[string]cty.Value{"mode": str("slow"), "secret": str("s3")}),
		"disks": tuple(obj(map[string]cty.Value{"kind": str("ssd"), "size": num(20)}),
			obj(map[string]cty.Value{"kind": str("hdd"), "size": cty.UnknownVal(cty.Number)})),
		"rules":    tuple(obj(map[string]cty.Value{"port": num(22), "proto": str("tcp")}), obj(map[string]cty.Value{"port": num(443), "proto": str("tcp")})),
		"envs":     obj(map[string]cty.Value{"PATH": obj(map[string]cty.Value{"value": str("/usr/bin")})}),
		"network":  tuple(obj(map[string]cty.Value{"cidr": str("10.0.0.0/16"), "label": str("primary")})),
		"mount":    tuple(obj(map[string]cty.Value{"path": str("/data"), "read_only": cty.True})),
		"timeouts": obj(map[string]cty.Value{"create": str("5m")}),
		"listener": obj(map[string]cty.Value{"http": obj(map[string]cty.Value{"port": num(80)}), "https": obj(map[string]cty.Value{"port": num(443)})}),
	})
	return planOf(resourceChange(t, "tpf_thing.web", plans.Update, before, after))
}

func replaceForcedByPath(t *testing.T) *plans.Plan {
	before := thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("old"), "size": num(1),
		"network": tuple(obj(map[string]cty.Value{"cidr": str("10.0.0.0/16"), "label": str("x")}))})
	after := thing(t, map[string]cty.Value{"id": cty.UnknownVal(cty.String), "name": str("new"), "size": num(1),
		"network": tuple(obj(map[string]cty.Value{"cidr": str("10.1.0.0/16"), "label": str("x")}))})
	return planOf(
		resourceChange(t, "tpf_thing.web", plans.DeleteThenCreate, before, after, reason(plans.ReplaceBecauseCannotUpdate),
			replacePaths(cty.GetAttrPath("name"), cty.GetAttrPath("network"))),
		resourceChange(t, "tpf_thing.tainted", plans.CreateThenDelete, before, after, reason(plans.ReplaceBecauseTainted)),
		resourceChange(t, "tpf_thing.triggered", plans.DeleteThenCreate, before, after, reason(plans.ReplaceByTriggers)),
	)
}

func sensitiveChanges(t *testing.T) *plans.Plan {
	before := thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("db"), "password": str("old"),
		"tags":     obj(map[string]cty.Value{"token": secret(str("t1")), "env": str("prod")}),
		"settings": obj(map[string]cty.Value{"mode": str("a"), "secret": str("x")}),
		"size":     num(1), "policy": str("plain")})
	after := thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("db"), "password": str("new"),
		"tags":     obj(map[string]cty.Value{"token": secret(str("t2")), "env": str("prod")}),
		"settings": obj(map[string]cty.Value{"mode": str("a"), "secret": str("y")}),
		"size":     secret(num(1)), "policy": str("plain"),
		"mount": secret(tuple(obj(map[string]cty.Value{"path": str("/secret"), "read_only": cty.True})))})
	return planOf(resourceChange(t, "tpf_thing.db", plans.Update, before, after))
}

func dataRead(t *testing.T) *plans.Plan {
	after := object(t, lookupSchema, map[string]cty.Value{"id": cty.UnknownVal(cty.String), "name": str("x"), "result": cty.UnknownVal(cty.String)})
	return planOf(resourceChange(t, "data.tpf_lookup.x", plans.Read, cty.NullVal(lookupSchema.ImpliedType()), after, reason(plans.ReadBecauseConfigUnknown)))
}

func driftPlan(t *testing.T, mode plans.Mode, withChange bool) *plans.Plan {
	stored := thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("web"), "size": num(1), "policy": str("p1")})
	refreshed := thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("web"), "size": num(5), "policy": str("p2")})
	plan := &plans.Plan{UIMode: mode}
	plan.DriftedResources = []*plans.ResourceInstanceChangeSrc{
		resourceChange(t, "tpf_thing.web", plans.Update, stored, refreshed),
		resourceChange(t, "tpf_thing.gone", plans.Delete, stored, nullThing),
	}
	// Something reads gone's id: a deleted object read by anything is
	// shown whole; one nothing reads would not be shown at all.
	plan.RelevantAttributes = []plans.ResourceAttr{{Resource: instance(t, "tpf_thing.web"), Attr: cty.GetAttrPath("size")},
		{Resource: instance(t, "tpf_thing.gone"), Attr: cty.GetAttrPath("id")}}
	if withChange {
		configured := thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("web"), "size": num(1), "policy": str("p2")})
		plan.Changes.Resources = []*plans.ResourceInstanceChangeSrc{
			resourceChange(t, "tpf_thing.web", plans.Update, refreshed, configured),
			resourceChange(t, "tpf_thing.gone", plans.Create, nullThing, thing(t, map[string]cty.Value{"id": cty.UnknownVal(cty.String), "name": str("gone")})),
		}
	}
	return plan
}

func drift(t *testing.T) *plans.Plan          { return driftPlan(t, plans.NormalMode, true) }
func refreshOnly(t *testing.T) *plans.Plan    { return driftPlan(t, plans.RefreshOnlyMode, false) }
func destroyNothing(t *testing.T) *plans.Plan { return &plans.Plan{UIMode: plans.DestroyMode} }

func refreshOnlyNoDrift(t *testing.T) *plans.Plan {
	return &plans.Plan{UIMode: plans.RefreshOnlyMode}
}

func movedImportedForgotten(t *testing.T) *plans.Plan {
	current := thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("web"), "size": num(1)})
	moved := resourceChange(t, "tpf_thing.new_name", plans.NoOp, current, current)
	moved.PrevRunAddr = instance(t, "tpf_thing.old_name")
	movedAndChanged := resourceChange(t, "module.app.tpf_thing.b", plans.Update, current, thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("web"), "size": num(2)}))
	movedAndChanged.PrevRunAddr = instance(t, "tpf_thing.b")
	imported := resourceChange(t, "tpf_thing.imported", plans.NoOp, current, current)
	imported.Importing = &plans.ImportingSrc{ID: "i-1"}
	forgotten := resourceChange(t, "tpf_thing.kept", plans.Forget, current, nullThing)
	return planOf(moved, movedAndChanged, imported, forgotten)
}

func deposedAndReasons(t *testing.T) *plans.Plan {
	current := thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("web")})
	deposed := resourceChange(t, "tpf_thing.web", plans.Delete, current, nullThing)
	deposed.DeposedKey = addrs.DeposedKey("0badf00d")
	return planOf(
		deposed,
		resourceChange(t, `tpf_thing.each["b"]`, plans.Delete, current, nullThing, reason(plans.DeleteBecauseEachKey)),
		resourceChange(t, "tpf_thing.single[0]", plans.Delete, current, nullThing, reason(plans.DeleteBecauseWrongRepetition)),
		resourceChange(t, "module.gone.tpf_thing.x", plans.Delete, current, nullThing, reason(plans.DeleteBecauseNoModule)),
	)
}

func errored(t *testing.T) *plans.Plan {
	plan := planOf(resourceChange(t, "tpf_thing.web", plans.Create, nullThing, thing(t, map[string]cty.Value{"id": cty.UnknownVal(cty.String), "name": str("web")})))
	plan.Errored = true
	plan.Changes.Outputs = []*plans.OutputChangeSrc{
		outputChange(t, "address", plans.Create, cty.NullVal(cty.String), cty.UnknownVal(cty.String), false),
		outputChange(t, "password", plans.Update, str("a"), str("b"), true),
		outputChange(t, "unchanged_but_long_name", plans.NoOp, str("same"), str("same"), false),
		outputChange(t, "list", plans.Update, tuple(str("a"), str("b")), tuple(str("a"), str("c")), false),
	}
	return plan
}

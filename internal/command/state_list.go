package command

import (
	"context"
	"encoding/json"
	"flag"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/stateedit"
)

// runStateList is `terrane state list [-id=ID] [ADDR...]`: the addresses of
// the workspace's resource instances, those the addresses select when
// given, one a line.
func runStateList(streams views.Streams, args []string) int {
	var id *string
	c, fs := parseStateFlags(streams, "state list", args, func(fs *flag.FlagSet) {
		id = fs.String("id", "", "List only the instances whose object has this id")
	})
	if c == nil {
		return 1
	}
	ctx := context.Background()
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	if !stateExists(snap) {
		return c.fail(errStateNotFound())
	}
	var found []addrs.AbsResourceInstance
	var ds diags.Diagnostics
	if fs.NArg() == 0 {
		found = stateedit.AllInstances(snap.State)
	} else {
		targets, parseDiags := parseTargets(fs.Args())
		if parseDiags.HasErrors() {
			return c.fail(parseDiags...)
		}
		found, ds = stateedit.LookupAll(snap.State, targets, false)
	}
	if ds.HasErrors() {
		return c.fail(ds...)
	}
	for _, addr := range found {
		if *id != "" && objectID(snap.State.ResourceInstance(addr)) != *id {
			continue
		}
		c.view.ResourceAddress(addr)
	}
	c.view.Diagnostics(ds)
	return 0
}

// objectID is the "id" attribute of an instance's current object, read
// from its stored encoding without the provider's schema, as OpenTofu's
// LegacyInstanceObjectID reads it (an id that is not a string reads as
// "<none>").
func objectID(inst *states.ResourceInstance) string {
	if inst == nil || inst.Current == nil {
		return "<not created>"
	}
	obj := inst.Current
	if obj.AttrsJSON != nil {
		var attrs struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(obj.AttrsJSON, &attrs) == nil {
			return attrs.ID
		}
	} else if id, ok := obj.AttrsFlat["id"]; ok {
		return id
	}
	return "<none>"
}
